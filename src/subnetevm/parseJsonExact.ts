/**
 * JSON.parse keeping every integer exact: a literal beyond Number.MAX_SAFE_INTEGER becomes a
 * bigint instead of a rounded double. subnet-evm genesis files carry such numbers (a fee config's
 * `targetGas` of 2^64 − 1, balances), which Go's *big.Int and uint64 read exactly.
 */
const MARK = '\u0000bigint:'

/** String literals (kept as they are) and number literals, in the order they appear. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(\.\d+)?([eE][+-]?\d+)?/g

export function parseJsonExact(text: string): unknown {
  const marked = text.replace(TOKENS, (token: string, fraction?: string, exponent?: string) => {
    if (token.startsWith('"') || fraction !== undefined || exponent !== undefined) return token
    return Number.isSafeInteger(Number(token)) ? token : JSON.stringify(MARK + token)
  })
  return JSON.parse(marked, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value))
}
