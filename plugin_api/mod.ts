export const globalEventBus = { tag: "ours" };
