/**
 * A handler's result already serialised: the dispatcher splices `text` into the answer as it is
 * instead of running JSON.stringify over an object tree (eth_getLogs answers thousands of logs).
 * `text` must be valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A short string JSON.stringify writes unchanged between quotes (printable ASCII without `"` or a backslash): quantities, hashes, addresses. */
function plainString(s: string): boolean {
  if (s.length > 128) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false
  }
  return true
}

/** A handler's result as JSON text: a RawJson's text, a plain string quoted without JSON.stringify's call, else JSON.stringify's (undefined for undefined). */
export function resultJson(value: unknown): string | undefined {
  if (value instanceof RawJson) return value.text
  return typeof value === 'string' && plainString(value) ? '"' + value + '"' : JSON.stringify(value)
}
