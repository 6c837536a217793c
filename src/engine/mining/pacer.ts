/**
 * Longest run of block building without a turn of the event loop. Executing a block is one chain
 * of microtasks: without a break, a request arriving meanwhile waits for the whole block (the send
 * latency of docs/PERFORMANCE.md). One pacer spans the whole build (execution, the trie update,
 * the roots, the store batch's encoding), so no step of a big block holds the loop longer, and a
 * small block (one transaction, newHeads latency) builds without a single yield.
 */
const YIELD_MS = 4
/**
 * A pause point for long synchronous work: lets pending I/O (requests) run once YIELD_MS have passed
 * since the last pause, so a big block never holds up requests for long.
 */
export function pacer(): () => Promise<void> {
  let resumed = performance.now()
  return async () => {
    if (performance.now() - resumed > YIELD_MS) resumed = await yieldToIo()
  }
}

/** Lets pending I/O (requests) run; resolves with the time it resumed. */
function yieldToIo(): Promise<number> {
  return new Promise((r) => setImmediate(() => r(performance.now())))
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}
