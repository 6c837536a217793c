/**
 * A subnet-evm rule broken: a chain config that does not verify, or a header that breaks the
 * fee, extra-data or time rules. `code` names the Go sentinel error the message wraps
 * (e.g. `errInvalidGasLimit` of subnet-evm plugin/evm/customheader/gas_limit.go), so callers and
 * tests can match on it as Go code matches with errors.Is; `message` is Go's error text.
 */
export class SubnetEvmRuleError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'SubnetEvmRuleError'
  }
}
