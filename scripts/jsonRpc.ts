/** A JSON-RPC caller for the scripts, over fetch: the result, or an Error "method: message". */
export function jsonRpc(url: string): (method: string, params?: unknown[]) => Promise<any> {
  let id = 0
  return async (method, params = []) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
}
