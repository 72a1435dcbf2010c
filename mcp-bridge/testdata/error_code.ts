/**
 * Test helper: the `code` a promise rejects with.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";

/** Awaits `promise` and returns its `CortexError` code, or a description of what happened instead. */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof CortexError ? error.code : `not a CortexError: ${String(error)}`;
  }
  return "resolved";
}
