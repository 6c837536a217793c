/**
 * A handler's result already serialised: the dispatcher splices `text` into the answer as it is
 * instead of running JSON.stringify over an object tree (eth_getLogs answers thousands of logs).
 * `text` must be valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}
}
