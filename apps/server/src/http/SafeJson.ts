/**
 * Request JSON, read as a hostile client may write it. Every route that takes a JSON body reads
 * it here (through `Respond.parseJson`, or directly where a route answers in its own shape).
 *
 * - Nesting is bounded before parsing: a few KB of `[[[[…` are thousands of levels, and any
 *   recursive walk over them (ours, the schema library's message formatting) would overflow the
 *   stack. Counting brackets in the text is a single loop, so no depth can break it.
 * - A `__proto__` key, or a `constructor` object holding `prototype`, is refused rather than
 *   kept: copied with a plain assignment it would become an object's prototype, so fields hidden
 *   under it could be read as if sent. secure-json-parse finds them (without walking the value
 *   unless the text holds one of those names).
 * - Half of a surrogate pair (`"\ud800"`) is refused: Postgres would store it as U+FFFD, so two
 *   texts could become one. Only a `\u` escape can carry it in (UTF-8 has none).
 */
import { Either } from "effect"
import SecureJson from "secure-json-parse"

/** How deeply arrays and objects may nest in a request body. */
export const MAX_DEPTH = 64

/** Why a body was refused. */
export type Refusal = "malformado" | "anidado" | "prototipo" | "unicode"

/** True when brackets outside strings nest deeper than {@link MAX_DEPTH}. */
const tooDeep = (text: string): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** No key or string holds half of a surrogate pair; walked with a list, not the call stack. */
const wellFormed = (value: unknown): boolean => {
  const pending: Array<unknown> = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    if (typeof next === "string") {
      if (LONE_SURROGATE.test(next)) return false
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item)
    } else if (next !== null && typeof next === "object") {
      for (const [key, item] of Object.entries(next)) {
        if (LONE_SURROGATE.test(key)) return false
        pending.push(item)
      }
    }
  }
  return true
}

const OPTIONS = { protoAction: "error", constructorAction: "error" } as const

/** The text's value, or why it is refused. */
export const parse = (text: string): Either.Either<unknown, Refusal> => {
  if (tooDeep(text)) return Either.left("anidado")
  let value: unknown
  try {
    value = SecureJson.parse(text, null, OPTIONS)
  } catch {
    // secure-json-parse throws a SyntaxError for both; only well-formed text can hold a forbidden key.
    return Either.left(isJson(text) ? "prototipo" : "malformado")
  }
  if (text.includes("\\u") && !wellFormed(value)) return Either.left("unicode")
  return Either.right(value)
}

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
