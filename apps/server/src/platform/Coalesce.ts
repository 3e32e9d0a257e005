/**
 * Calls that arrive while others are under way, run as one. Postgres spends most of a
 * one-row insert on its transaction (about 200 µs of its CPU per link on the bench machine,
 * against about 35 µs per row when rows commit together), so link creation sends the rows its
 * concurrent requests bring as one statement.
 *
 * At most `inFlight` statements run at once; calls that arrive meanwhile wait for one to end
 * and then go together. A lone call on an idle process runs at once (after the current turn
 * of the event loop). Each caller still gets its own answer, only after the statement that
 * holds its row has ended. When the statement for several fails, each of its calls runs
 * again by itself, all at once (the pool's size bounds them), so one bad row or a lost race
 * fails only its own request.
 */

export interface CoalesceOptions<I, O> {
  /** One call by itself. */
  readonly one: (item: I) => Promise<O>
  /**
   * Several calls at once: one answer per item, in the items' order. A rejection must mean
   * that none of them took effect, since each is then run again by `one`.
   */
  readonly many: (items: ReadonlyArray<I>) => Promise<ReadonlyArray<O>>
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

  const settle = (batch: ReadonlyArray<Waiting<I, O>>, answers: ReadonlyArray<O>) => {
    batch.forEach((w, i) => {
      w.resolve(answers[i] as O)
    })
  }

  const alone = (w: Waiting<I, O>) => options.one(w.item).then(w.resolve, w.reject)

  const send = (batch: ReadonlyArray<Waiting<I, O>>): Promise<unknown> =>
    batch.length === 1
      ? alone(batch[0] as Waiting<I, O>)
      : options.many(batch.map((w) => w.item)).then(
          (answers) => settle(batch, answers),
          () => Promise.all(batch.map(alone))
        )

  const flush = () => {
    scheduled = false
    while (queue.length > 0 && running < options.inFlight) {
      const batch = queue.slice(0, options.max)
      queue = queue.slice(options.max)
      running++
      send(batch).finally(() => {
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
