/** The current time in unix seconds, as avalanchego's time-lock and fee clocks read it. */
export const unixNow = (): bigint => BigInt(Math.floor(Date.now() / 1000))
