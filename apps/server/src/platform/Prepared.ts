/**
 * Named prepared statements for the pg pool. A parameterised statement this process has run a
 * few times gets a name, so each connection parses and plans it once and from then on sends
 * only Bind and Execute: Postgres's CPU per link creation about halves.
 *
 * Bounded, because every name lives on every connection of the pool: statements longer than
 * {@link Limits.maxLength} (batch inserts) and statements past the first {@link Limits.max}
 * named ones run unnamed, as before. Statements without parameters are never named: they may
 * hold several commands (migrations), which only the simple protocol runs.
 *
 * A table whose columns change under a running process (a migration from a newer release)
 * makes Postgres refuse a statement prepared before it ("cached plan must not change result
 * type"): its text then gets a fresh name, which every connection prepares anew, so only the
 * one call fails (inside a transaction the stale statement cannot even be deallocated).
 */
import Pg from "pg"

export interface Limits {
  /** Runs of one text before it is named: one-off statements stay unnamed. */
  readonly after: number
  /** Most names per process (and so per connection). */
  readonly max: number
  /** Longest text named. */
  readonly maxLength: number
}

export const DEFAULT_LIMITS: Limits = { after: 2, max: 300, maxLength: 4_000 }

/**
 * Marks a statement that must be planned with its values each time it runs, never named: a
 * list over a table where one merchant may hold millions of rows and another ten, for which a
 * generic plan (the one a named statement settles on after five runs) would scan the table.
 */
export const PLANNED_EACH_TIME = "/* planned each time */"

/** Which texts have names; `nameOf` counts a run and answers the name to use, if any. */
export const registry = (limits: Limits = DEFAULT_LIMITS) => {
  const named = new Map<string, string>()
  const runs = new Map<string, number>()
  let issued = 0
  const fresh = () => `switch_${++issued}`
  return {
    nameOf: (text: string): string | undefined => {
      const name = named.get(text)
      if (name !== undefined) return name
      if (text.length > limits.maxLength || named.size >= limits.max || text.includes(PLANNED_EACH_TIME))
        return undefined
      const count = (runs.get(text) ?? 0) + 1
      if (count < limits.after) {
        if (runs.size >= 4 * limits.max) runs.clear()
        runs.set(text, count)
        return undefined
      }
      runs.delete(text)
      const given = fresh()
      named.set(text, given)
      return given
    },
    /** A new name for a text whose prepared statement went stale; the old one is never reused. */
    renew: (text: string) => {
      if (named.has(text)) named.set(text, fresh())
    },
    size: () => named.size
  }
}

export type Registry = ReturnType<typeof registry>

type Callback = (err: Error | null, result: unknown) => void

const isStalePlan = (err: Error | null) => (err as { code?: string } | null)?.code === "0A000"

/** A pg client that names the statements `names` picks; everything else passes through. */
export const preparingClient = (names: Registry): typeof Pg.Client =>
  class PreparingClient extends Pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them all
    override query(config: any, values?: any, callback?: any): any {
      if (
        typeof config === "string" &&
        Array.isArray(values) &&
        values.length > 0 &&
        typeof callback === "function"
      ) {
        const name = names.nameOf(config)
        if (name !== undefined) {
          const done = callback as Callback
          return super.query({ name, text: config, values }, (err: Error | null, result: unknown) => {
            if (isStalePlan(err)) names.renew(config)
            done(err, result)
          })
        }
      }
      return super.query(config, values, callback)
    }
  }
