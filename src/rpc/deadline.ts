/** The cancellation handed to handlers; the dispatcher sets `aborted` when the deadline passes. */
export type Cancel = { aborted: boolean }

/**
 * A request's answer, or once `ms` passed (coreth `api-max-duration`, docs/SECURITY.md, L11) the text
 * `timedOut` makes, with `cancel.aborted` set so running EVM work stops at its next check.
 */
export function answerWithin(answer: Promise<string | undefined>, ms: number, cancel: Cancel, timedOut: () => string | undefined): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cancel.aborted = true
      resolve(timedOut())
    }, ms)
    answer.then(
      (text) => {
        clearTimeout(timer)
        resolve(text)
      },
      (err: unknown) => {
        clearTimeout(timer)
        reject(err)
      },
    )
  })
}

/**
 * Waits for a batch's answers until the request's deadline; then sets `cancel.aborted` and answers
 * every call still running with `timedOut(index)`, keeping the answers already made (geth
 * rpc/handler.go batchCallBuffer.timeout; a notification's is undefined).
 */
export function batchWithin(
  answers: (string | undefined | Promise<string | undefined>)[],
  ms: number,
  cancel: Cancel,
  timedOut: (index: number) => string | undefined,
): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = new Array(answers.length)
  const settled: boolean[] = new Array(answers.length).fill(false)
  let pending = 0
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const finish = (): void => {
      if (timer !== undefined) clearTimeout(timer)
      resolve(out)
    }
    for (let i = 0; i < answers.length; i++) {
      const a = answers[i]
      if (typeof a === 'string' || a === undefined) {
        out[i] = a
        settled[i] = true
        continue
      }
      pending++
      a.then((text) => {
        if (cancel.aborted) return
        out[i] = text
        settled[i] = true
        if (--pending === 0) finish()
      }, reject)
    }
    if (pending === 0) return finish()
    timer = setTimeout(() => {
      cancel.aborted = true
      for (let i = 0; i < answers.length; i++) if (!settled[i]) out[i] = timedOut(i)
      resolve(out)
    }, ms)
  })
}
