/** The dashboard: one static page that reads the API with the token the person pastes in. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cortex</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;max-width:70rem;color:#222}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.error{color:#b00}.active{color:#070}code{font-size:12px}
</style></head><body>
<h1>cortex</h1>
<p><label>Token (from &lt;home&gt;/daemon.token): <input id="token" type="password" size="70"></label>
<button id="save">Use</button></p>
<h2>Plugins</h2><table id="plugins"><thead><tr><th>Name</th><th>Version</th><th>Kind</th><th>Trust</th><th>Status</th><th>Tools</th></tr></thead><tbody></tbody></table>
<h2>Recent events</h2><table id="events"><thead><tr><th>#</th><th>Time</th><th>Type</th><th>Payload</th></tr></thead><tbody></tbody></table>
<script>
const tokenInput = document.getElementById("token");
tokenInput.value = localStorage.getItem("cortexToken") || "";
document.getElementById("save").onclick = () => { localStorage.setItem("cortexToken", tokenInput.value.trim()); refresh(); };
function cell(text, cls) { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; return td; }
async function api(path) {
  const r = await fetch(path, { headers: { authorization: "Bearer " + (localStorage.getItem("cortexToken") || "") } });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error ? body.error.message : r.status);
  return body;
}
async function refresh() {
  try {
    const { plugins } = await api("/api/plugins");
    const tbody = document.querySelector("#plugins tbody"); tbody.replaceChildren();
    for (const p of plugins) {
      const tr = document.createElement("tr");
      tr.append(cell(p.name), cell(p.version), cell(p.kind), cell(p.trust),
        cell(p.status + (p.error ? ": " + p.error : ""), p.status), cell(p.tools.join(", ")));
      tbody.append(tr);
    }
    const { events } = await api("/api/events?limit=50");
    const eb = document.querySelector("#events tbody"); eb.replaceChildren();
    for (const e of events.reverse()) {
      const tr = document.createElement("tr");
      tr.append(cell(String(e.seq)), cell(e.at), cell(e.type), cell(JSON.stringify(e.payload).slice(0, 300)));
      eb.append(tr);
    }
  } catch (err) {
    document.querySelector("#plugins tbody").replaceChildren(cell(String(err.message || err), "error"));
  }
}
refresh(); setInterval(refresh, 3000);
</script></body></html>
`;
