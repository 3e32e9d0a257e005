/**
 * Calls that arrive while others are under way, run as one. Postgres spends most of a
 * one-row insert on its transaction (about 200 µs of its CPU per link on the bench machine,
 * against about 35 µs per row when rows commit together), so link creation sends the rows its
 * concurrent requests bring as one statement.
 *
 * At most `inFlight` statements run at once; calls that arrive meanwhile wait for one to end
 * and then go together. A lone call on an idle process runs at once (after the current turn
 * of the event loop). Each caller gets its own answer, only after the statement that holds
 * its row has ended.
 *
 * When the statement for several fails, its calls are split in halves and each half is sent
 * again, one after the other in the same slot, down to single calls run by `retry`. So one
 * bad row fails only its own request, at the cost of about two statements per halving, and a
 * failed statement never takes more than its slot of the pool.
 */

export interface CoalesceOptions<I, O> {
  /** One call by itself. */
  readonly one: (item: I) => Promise<O>
  /** Several calls at once: one answer per item, in the items' order. */
  readonly many: (items: ReadonlyArray<I>) => Promise<ReadonlyArray<O>>
  /**
   * One call whose statement with others failed. That statement may have taken effect before
   * its answer was lost (a connection cut after the commit), so this must not repeat it.
   */
  readonly retry: (item: I) => Promise<O>
  /** Most items given to one `many`. */
  readonly max: number
  /** Most statements under way at once. */
  readonly inFlight: number
}

interface Waiting<I, O> {
  readonly item: I
  readonly resolve: (value: O) => void
  readonly reject: (error: unknown) => void
}

export const coalesce = <I, O>(options: CoalesceOptions<I, O>): ((item: I) => Promise<O>) => {
  let queue: Array<Waiting<I, O>> = []
  let running = 0
  let scheduled = false

  /** Runs `f`, a throw becoming a rejection. */
  const attempt = <A>(f: () => Promise<A>): Promise<A> => Promise.resolve().then(f)

  const single = (w: Waiting<I, O>, run: (item: I) => Promise<O>) =>
    attempt(() => run(w.item)).then(w.resolve, w.reject)

  const send = (batch: ReadonlyArray<Waiting<I, O>>, failedBefore: boolean): Promise<void> => {
    if (batch.length === 1) {
      const w = batch[0] as Waiting<I, O>
      return single(w, failedBefore ? options.retry : options.one)
    }
    return attempt(() => options.many(batch.map((w) => w.item))).then(
      (answers) => {
        if (!Array.isArray(answers) || answers.length !== batch.length) return halves(batch)
        batch.forEach((w, i) => {
          w.resolve(answers[i] as O)
        })
      },
      () => halves(batch)
    )
  }

  const halves = async (batch: ReadonlyArray<Waiting<I, O>>) => {
    const middle = Math.ceil(batch.length / 2)
    await send(batch.slice(0, middle), true)
    await send(batch.slice(middle), true)
  }

  const flush = () => {
    scheduled = false
    while (queue.length > 0 && running < options.inFlight) {
      const batch = queue.slice(0, options.max)
      queue = queue.slice(options.max)
      running++
      send(batch, false).finally(() => {
        running--
        schedule()
      })
    }
  }

  const schedule = () => {
    if (scheduled || queue.length === 0 || running >= options.inFlight) return
    scheduled = true
    setImmediate(flush)
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject })
      schedule()
    })
}
