/**
 * What one message's run shows about the gas limits under which it would run exactly the same way,
 * kept only when asked (EvmMessage.gasLedger; eth_estimateGas, which then skips the runs whose
 * outcome this proves: src/engine/exec/estimateGas.ts).
 *
 * A run reads its gas limit only through out-of-gas checks, the 2 300 gas SSTORE needs left
 * (EIP-2200), what a call or creation forwards (all but 1/64 of what is left, EIP-150) and GAS.
 * With less gas and the same course, every frame has less left by the same amount until the first
 * such check fails: a frame's gas only falls between its calls, so its tightest check in a stretch
 * is the stretch's end, and a child needs the parent to have kept enough that the 63/64 it gets
 * covers what the child needed. So each frame's least budget for the same course (`need`) is the
 * largest of its budget less what was left at each stretch's end, less 2 301 before each SSTORE, and
 * what each child needed turned into the parent's terms. A GAS whose value is not a call's gas
 * argument, or a child that failed exceptionally (it took all it was given, which depends on the
 * limit), make the run `opaque`: nothing is proven.
 */
export class GasLedger {
  /** The interpreter ran the message with this ledger (runMessage sets it). */
  ran = false
  /** Nothing is proven: the run read its gas in a way that could change its course. */
  opaque = false
  /** The top message's gas (the transaction's limit less its intrinsic gas). */
  budget = 0
  /**
   * The top frame's thresholds in the order met, each above the ones before: with a top budget under
   * `at`, the run goes another way there: out of gas in the top frame (`child` false: the message
   * fails), or in a call below it (`child` true: the caller may go on, so only a run can tell).
   */
  readonly marks: { at: number; child: boolean }[] = []

  /**
   * The outcome of the same message with a top budget under this run's: success on the same course
   * when it meets every threshold, failure (out of gas in the top frame) at the first one it misses,
   * undefined (only a run can tell) when that is a call's below the top, or the run was opaque.
   */
  outcome(budget: number): boolean | undefined {
    if (!this.ran || this.opaque || budget >= this.budget || budget < 0) return undefined
    for (const mark of this.marks) if (budget < mark.at) return mark.child ? undefined : false
    return true
  }
}

/** The least gas `a` left at a call forwards `need` from: a - floor(a / 64) >= need (EIP-150). */
export function availFor(need: number): number {
  if (need <= 0) return 0
  let a = need + Math.floor(need / 63)
  while (a - Math.floor(a / 64) < need) a++
  while (a > 0 && a - 1 - Math.floor((a - 1) / 64) >= need) a--
  return a
}
