/**
 * Turns Schema decode failures into SPEC's validation detail: `{ fieldErrors: { campo: [mensajes] } }`.
 * Messages are Spanish; schemas carry their own `message` annotations and the structural
 * issues (missing, unexpected, wrong type) get a fixed text here.
 */
import { Either, ParseResult, Schema } from "effect"

/** SPEC's validation detail: field path (dot-joined) to its messages. */
export interface FieldErrors {
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}

/** The path key used for errors of the body as a whole. */
export const ROOT = "_"

const pathKey = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0 ? ROOT : path.map((segment) => String(segment)).join(".")

const structuralMessage = (issue: Issue): string => {
  switch (issue._tag) {
    case "Missing":
      return "es obligatorio"
    case "Unexpected":
      return "campo no permitido"
    case "Forbidden":
      return "no se pudo validar"
    default:
      // Schema's own English texts start with "Expected"; ours are Spanish.
      return issue.message.startsWith("Expected") ? GENERIC : issue.message
  }
}

const GENERIC = "tipo de dato inválido"

/** One decoding issue as `ParseResult.ArrayFormatter` lists it (and HttpApi's decode failure carries it). */
export interface Issue {
  readonly _tag: ParseResult.ArrayFormatterIssue["_tag"]
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * Groups decoding issues by field path. An optional field is a union with `undefined`,
 * so a bad value also fails the `undefined` member; that generic text is dropped wherever a
 * more specific message exists at the same path or below it.
 *
 * Paths are the client's field names, so they are grouped in a Map: in a plain object a field
 * named `toString` or `constructor` would find the object's own methods.
 */
export const fieldErrorsOf = (issues: ReadonlyArray<Issue>): FieldErrors => {
  const grouped = new Map<string, Array<string>>()
  for (const issue of issues) {
    const key = pathKey(issue.path)
    const message = structuralMessage(issue)
    const list = grouped.get(key) ?? []
    if (!list.includes(message)) list.push(message)
    grouped.set(key, list)
  }
  const keys = [...grouped.keys()]
  for (const [key, list] of grouped) {
    const specific = list.some((m) => m !== GENERIC) || keys.some((k) => k.startsWith(`${key}.`))
    if (specific && list.includes(GENERIC)) {
      const rest = list.filter((m) => m !== GENERIC)
      if (rest.length === 0) grouped.delete(key)
      else grouped.set(key, rest)
    }
  }
  // fromEntries defines each key as the object's own property, `__proto__` included.
  return { fieldErrors: Object.fromEntries(grouped) }
}

/** A parse error's issues grouped by field path (see {@link fieldErrorsOf}). */
export const fieldErrors = (error: ParseResult.ParseError): FieldErrors =>
  fieldErrorsOf(ParseResult.ArrayFormatter.formatErrorSync(error))

/** Builds a detail from explicit (field, message) pairs, for checks that run after decoding. */
export const fieldError = (field: string, message: string): FieldErrors => ({
  fieldErrors: { [field]: [message] }
})

/** Decode options every API body uses: every issue reported, no other properties accepted. */
export const strict = { errors: "all", onExcessProperty: "error" } as const

const isObject = (value: unknown): value is object => value !== null && typeof value === "object"

/** Sets `key` as an own property even when it is `__proto__` (whose setter would change the prototype). */
const put = (target: Record<string, unknown>, key: string, value: unknown) => {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/**
 * Drops object properties whose value is `null`, at any depth: clients (and SDKs) send `null`
 * for "not given", and treating it as absent keeps one shape per field in the schemas.
 * Walked with a list of its own rather than the call stack, so no nesting overflows it.
 */
export const dropNulls = (input: unknown): unknown => {
  // Arrays and objects still to copy, each with its copy (empty until its turn comes).
  const pending: Array<readonly [object, Array<unknown> | Record<string, unknown>]> = []
  const copy = (value: unknown): unknown => {
    if (!isObject(value)) return value
    const empty = Array.isArray(value) ? [] : {}
    pending.push([value, empty])
    return empty
  }
  const root = copy(input)
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next
    if (Array.isArray(to)) for (const value of from as Array<unknown>) to.push(copy(value))
    else for (const [key, value] of Object.entries(from)) if (value !== null) put(to, key, copy(value))
  }
  return root
}

/** A field's path, linked to its parent's: joined only for the few paths reported. */
interface PathNode {
  readonly key: string
  readonly parent: PathNode | null
}

const joinPath = (prefix: ReadonlyArray<string>, node: PathNode | null): string => {
  const keys: Array<string> = []
  for (let at = node; at !== null; at = at.parent) keys.push(at.key)
  const all = [...prefix, ...keys.reverse()]
  return all.length === 0 ? ROOT : all.join(".")
}

/**
 * Paths of strings (keys or values) holding a NUL character, which no text field accepts and
 * Postgres cannot store. Walked with a list of its own rather than the call stack, so no
 * nesting overflows it.
 */
export const nulCharacters = (input: unknown, path: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const found: Array<string> = []
  // An entry is a value to look into, or (`key`) a key found holding a NUL.
  const pending: Array<{ readonly value?: unknown; readonly at: PathNode | null; readonly key?: true }> = [
    { value: input, at: null }
  ]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, at } = next
    if (next.key === true) found.push(joinPath(path, at))
    else if (typeof value === "string") {
      if (value.includes("\u0000")) found.push(joinPath(path, at))
    } else if (isObject(value)) {
      // Pushed in reverse, so paths come out in the body's order.
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown]
        const node = { key, parent: at }
        pending.push(key.includes("\u0000") ? { at: node, key: true } : { value: child, at: node })
      }
    }
  }
  return found
}

/**
 * A parsed body made ready for a schema: refused when a string (key or value) holds a NUL
 * character, with those paths as its `fieldErrors`; otherwise its `null` properties dropped.
 */
export const prepare = (input: unknown): Either.Either<unknown, FieldErrors> => {
  const nul = nulCharacters(input)
  if (nul.length > 0) {
    return Either.left({
      fieldErrors: Object.fromEntries(nul.map((p) => [p, ["contiene un carácter no permitido"]]))
    })
  }
  return Either.right(dropNulls(input))
}

/** Decodes an unknown body strictly (nulls read as absent), failing with SPEC's `fieldErrors` detail. */
export const decode = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const parse = Schema.decodeUnknownEither(schema, strict)
  return (input: unknown): Either.Either<A, FieldErrors> =>
    Either.flatMap(prepare(input), (ready) => Either.mapLeft(parse(ready), fieldErrors))
}
