/**
 * Runs `use`, then zeroes `secrets` whether it returned or threw, so private keys read for one
 * request do not outlive it in memory.
 */
export async function wipeAfter<T>(secrets: readonly Uint8Array[], use: () => T | Promise<T>): Promise<T> {
  try {
    return await use()
  } finally {
    for (const s of secrets) s.fill(0)
  }
}
