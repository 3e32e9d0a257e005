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

const structuralMessage = (issue: ParseResult.ArrayFormatterIssue): string => {
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

/**
 * Groups a parse error's issues by field path. An optional field is a union with `undefined`,
 * so a bad value also fails the `undefined` member; that generic text is dropped wherever a
 * more specific message exists at the same path or below it.
 */
export const fieldErrors = (error: ParseResult.ParseError): FieldErrors => {
  const grouped: Record<string, Array<string>> = {}
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const key = pathKey(issue.path)
    const message = structuralMessage(issue)
    const list = grouped[key] ?? []
    if (!list.includes(message)) list.push(message)
    grouped[key] = list
  }
  const keys = Object.keys(grouped)
  for (const key of keys) {
    const list = grouped[key] ?? []
    const specific = list.some((m) => m !== GENERIC) || keys.some((k) => k.startsWith(`${key}.`))
    if (specific && list.includes(GENERIC)) {
      const rest = list.filter((m) => m !== GENERIC)
      if (rest.length === 0) delete grouped[key]
      else grouped[key] = rest
    }
  }
  return { fieldErrors: grouped }
}

/** Builds a detail from explicit (field, message) pairs, for checks that run after decoding. */
export const fieldError = (field: string, message: string): FieldErrors => ({
  fieldErrors: { [field]: [message] }
})

/** Decode options every API body uses: every issue reported, no other properties accepted. */
export const strict = { errors: "all", onExcessProperty: "error" } as const

/**
 * Drops object properties whose value is `null`, at any depth: clients (and SDKs) send `null`
 * for "not given", and treating it as absent keeps one shape per field in the schemas.
 */
export const dropNulls = (input: unknown): unknown => {
  if (Array.isArray(input)) return input.map(dropNulls)
  if (input === null || typeof input !== "object") return input
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (value !== null) out[key] = dropNulls(value)
  }
  return out
}

/**
 * Paths of strings (keys or values) holding a NUL character, which no text field accepts and
 * Postgres cannot store.
 */
export const nulCharacters = (input: unknown, path: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  if (typeof input === "string")
    return input.includes("\u0000") ? [path.length === 0 ? ROOT : path.join(".")] : []
  if (input === null || typeof input !== "object") return []
  return Object.entries(input).flatMap(([key, value]) =>
    key.includes("\u0000") ? [[...path, key].join(".")] : nulCharacters(value, [...path, key])
  )
}

/** Decodes an unknown body strictly (nulls read as absent), failing with SPEC's `fieldErrors` detail. */
export const decode = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const parse = Schema.decodeUnknownEither(schema, strict)
  return (input: unknown): Either.Either<A, FieldErrors> => {
    const nul = nulCharacters(input)
    if (nul.length > 0) {
      return Either.left({
        fieldErrors: Object.fromEntries(nul.map((p) => [p, ["contiene un carácter no permitido"]]))
      })
    }
    return Either.mapLeft(parse(dropNulls(input)), fieldErrors)
  }
}
