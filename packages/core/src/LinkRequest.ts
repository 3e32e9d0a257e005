/**
 * Request bodies of `POST /links` and `POST /lotes` with every rule and limit of SPEC.
 * Rules that need the clock (expira_en in the future) take `now` in {@link resolveExpiry}.
 */
import { Either, ParseResult, Schema } from "effect"
import { PositiveAmount } from "./Amount.js"
import { characters, text } from "./Instrument.js"
import * as Money from "./Money.js"
import * as Validation from "./Validation.js"

const HOUR_MS = 3_600_000

/** Link validity bounds, in hours (SPEC Limits). */
export const EXPIRA_HORAS_MIN = 1
export const EXPIRA_HORAS_MAX = 720
export const EXPIRA_HORAS_DEFAULT = 24
/** Items per batch. */
export const LOTE_MAX_ITEMS = 500
export const METADATA_MAX_KEYS = 20

const optional = Schema.optional

/** `expira_horas`: an integer from 1 to 720. */
export const ExpiraHoras = Schema.Number.annotations({ message: () => "debe ser un número entero" }).pipe(
  Schema.int({ message: () => "debe ser un número entero" }),
  Schema.between(EXPIRA_HORAS_MIN, EXPIRA_HORAS_MAX, { message: () => "debe estar entre 1 y 720" })
)

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * Reads an ISO 8601 date-time. Without an offset it is Caracas time (UTC-4), the only
 * reading a Venezuelan merchant could mean.
 */
export const parseIsoDateTime = (value: string): Date | undefined => {
  const match = ISO_DATE_TIME.exec(value)
  if (match === null) return undefined
  const offset = match[8] ?? "-04:00"
  const normalised = `${value.slice(0, value.length - (match[8]?.length ?? 0))}${offset.toUpperCase()}`
  const date = new Date(normalised)
  const [, y, mo, d, h, mi] = match
  // Date accepts 2026-02-31 by rolling over; compare the fields to refuse it.
  if (
    Number.isNaN(date.getTime()) ||
    Number(mo) > 12 ||
    Number(d) > 31 ||
    Number(h) > 23 ||
    Number(mi) > 59
  ) {
    return undefined
  }
  const probe = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  return probe.getUTCDate() === Number(d) ? date : undefined
}

/** An ISO 8601 date-time string, decoded to a `Date` and encoded back as ISO text. */
export const IsoDateTime = Schema.transformOrFail(
  Schema.String.annotations({ message: () => "debe ser una fecha ISO 8601" }),
  Schema.DateFromSelf,
  {
    strict: true,
    decode: (value, _, ast) => {
      const date = parseIsoDateTime(value)
      return date === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, value, "debe ser una fecha ISO 8601"))
        : ParseResult.succeed(date)
    },
    encode: (date) => ParseResult.succeed(date.toISOString())
  }
).annotations({ description: "Fecha y hora ISO 8601" })

/** `success_url` / `failure_url`: `https://`, up to 400 characters. */
export const HttpsUrl = Schema.String.annotations({ message: () => "debe ser texto" }).pipe(
  Schema.maxLength(400, { message: () => "admite como máximo 400 caracteres" }),
  Schema.filter((url) => {
    if (!url.startsWith("https://")) return "debe comenzar con https://"
    return URL.canParse(url) && new URL(url).hostname !== "" ? undefined : "no es una URL válida"
  })
)

const MetadataValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean).annotations({
  message: () => "cada valor debe ser texto, número o booleano"
})

/** Merchant data on a link: up to 20 keys, names up to 40, values up to 200 characters. */
export const Metadata = Schema.Record({ key: Schema.String, value: MetadataValue })
  .annotations({ message: () => "debe ser un objeto" })
  .pipe(
    Schema.filter((record) => {
      const issues: Array<Schema.FilterIssue> = []
      const keys = Object.keys(record)
      if (keys.length > METADATA_MAX_KEYS) {
        issues.push({ path: [], message: `admite como máximo ${METADATA_MAX_KEYS} claves` })
      }
      for (const key of keys) {
        if (key.length === 0 || characters(key) > 40) {
          issues.push({ path: [key], message: "el nombre de la clave debe tener de 1 a 40 caracteres" })
        } else if (characters(String(record[key])) > 200) {
          issues.push({ path: [key], message: "el valor admite como máximo 200 caracteres" })
        }
      }
      return issues
    })
  )
  .annotations({ identifier: "Metadata" })

/** `idempotency_key` on links and batches: 1 to 64 characters. */
export const IdempotencyKey = text(64)

/** The `POST /links` body. `split` entries are decoded by Split, which has its own error codes. */
export const LinkCreate = Schema.Struct({
  monto: PositiveAmount,
  concepto: text(140),
  moneda: Schema.optionalWith(Schema.Literal("VES").annotations({ message: () => "solo se admite VES" }), {
    default: () => "VES" as const
  }),
  expira_horas: optional(ExpiraHoras),
  expira_en: optional(IsoDateTime),
  success_url: optional(HttpsUrl),
  failure_url: optional(HttpsUrl),
  metadata: optional(Metadata),
  idempotency_key: optional(IdempotencyKey),
  split: optional(
    Schema.Array(Schema.Unknown.annotations({ jsonSchema: { type: "object" } })).annotations({
      message: () => "debe ser una lista"
    })
  )
}).annotations({ identifier: "LinkCreate" })
export interface LinkCreate extends Schema.Schema.Type<typeof LinkCreate> {}

/** The expiry of a new link: `expira_en` (must be future) wins over `expira_horas` (default 24). */
export const resolveExpiry = (
  body: { readonly expira_en?: Date | undefined; readonly expira_horas?: number | undefined },
  now: Date
): Either.Either<Date, Validation.FieldErrors> => {
  if (body.expira_en !== undefined) {
    return body.expira_en.getTime() > now.getTime()
      ? Either.right(body.expira_en)
      : Either.left(Validation.fieldError("expira_en", "debe ser una fecha futura"))
  }
  return Either.right(new Date(now.getTime() + (body.expira_horas ?? EXPIRA_HORAS_DEFAULT) * HOUR_MS))
}

/** A batch item: one link of the batch. */
export const LoteItem = Schema.Struct({
  monto: PositiveAmount,
  concepto: text(140),
  referencia_externa: optional(text(64)),
  cliente: optional(
    Schema.Struct({
      nombre: optional(text(120)),
      telefono: optional(text(20))
    })
  ),
  idempotency_key: optional(IdempotencyKey)
}).annotations({ identifier: "LoteItem" })
export interface LoteItem extends Schema.Schema.Type<typeof LoteItem> {}

/** The `POST /lotes` body: 1 to 500 items, all-or-nothing. */
export const LoteCreate = Schema.Struct({
  nombre: optional(text(140)),
  idempotency_key: optional(IdempotencyKey),
  expira_horas: optional(ExpiraHoras),
  items: Schema.Array(LoteItem)
    .annotations({ message: () => "debe ser una lista" })
    .pipe(
      Schema.minItems(1, { message: () => "debe tener al menos 1 elemento" }),
      Schema.maxItems(LOTE_MAX_ITEMS, { message: () => `admite como máximo ${LOTE_MAX_ITEMS} elementos` })
    )
}).annotations({ identifier: "LoteCreate" })
export interface LoteCreate extends Schema.Schema.Type<typeof LoteCreate> {}

/**
 * Items whose key repeats an earlier item's in the same batch, by index: each item link is
 * born with its own key, so such a batch is refused like one whose key was used before
 * (`409 item_duplicado`, LotesService.ts).
 */
export const repeatedItemKeys = (
  items: ReadonlyArray<{ readonly idempotency_key?: string | undefined }>
): ReadonlyArray<{ readonly index: number; readonly key: string }> => {
  const seen = new Set<string>()
  return items.flatMap((item, index) => {
    const key = item.idempotency_key
    if (key === undefined) return []
    if (seen.has(key)) return [{ index, key }]
    seen.add(key)
    return []
  })
}

/** SPEC: `expira_horas` is ignored when `expira_en` is sent, so it is not checked then either. */
const ignoringHours = (input: unknown): unknown => {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input
  const body = input as Record<string, unknown>
  if (body.expira_en === undefined || body.expira_en === null || !("expira_horas" in body)) return input
  const { expira_horas: _, ...rest } = body
  return rest
}

// Built once: the hot path (every link creation) only runs them.
const decodeLinkBody = Validation.decode(LinkCreate)
const decodeLoteBody = Validation.decode(LoteCreate)

/** A text field the schema's `text(max)` admits, with no NUL (which `Validation.prepare` refuses). */
const plainText = (value: unknown, max: number): value is string =>
  typeof value === "string" && value.length > 0 && !value.includes("\u0000") && characters(value) <= max

/**
 * The most common body, `monto` and `concepto` (and an `idempotency_key`), valid, read without
 * the schema's machinery, which cost about 4 µs of CPU per link; `undefined` for any other body,
 * which the schema decodes. Whatever it answers, the schema answers the same (property-tested).
 */
export const plainLinkCreate = (input: unknown): LinkCreate | undefined => {
  if (input === null || typeof input !== "object" || Object.getPrototypeOf(input) !== Object.prototype)
    return undefined
  const body = input as Record<string, unknown>
  for (const key of Object.keys(body))
    if (key !== "monto" && key !== "concepto" && key !== "idempotency_key") return undefined
  const { monto, concepto, idempotency_key } = body
  if (typeof monto !== "number" || !plainText(concepto, 140)) return undefined
  const cents = Money.fromPositiveNumber(monto)
  if (Either.isLeft(cents)) return undefined
  if (!("idempotency_key" in body)) return { monto: cents.right, concepto, moneda: "VES" }
  return plainText(idempotency_key, 64)
    ? { monto: cents.right, concepto, moneda: "VES", idempotency_key }
    : undefined
}

/** Decodes a `POST /links` body and resolves its expiry at `now`. */
export const decodeLinkCreate = (
  input: unknown,
  now: Date
): Either.Either<{ readonly body: LinkCreate; readonly expiresAt: Date }, Validation.FieldErrors> => {
  const plain = plainLinkCreate(input)
  const decoded = plain === undefined ? decodeLinkBody(ignoringHours(input)) : Either.right(plain)
  return Either.flatMap(decoded, (body) =>
    Either.map(resolveExpiry(body, now), (expiresAt) => ({ body, expiresAt }))
  )
}

/** Decodes a `POST /lotes` body and resolves the expiry. */
export const decodeLoteCreate = (
  input: unknown,
  now: Date
): Either.Either<{ readonly body: LoteCreate; readonly expiresAt: Date }, Validation.FieldErrors> =>
  Either.flatMap(decodeLoteBody(ignoringHours(input)), (body) =>
    Either.map(resolveExpiry(body, now), (expiresAt) => ({ body, expiresAt }))
  )

/** Where a link was made (SPEC's `origen`): the API, the portal, the merchant's own page, the pay button or WhatsApp. */
export const Origenes = ["api", "panel", "mi_pagina", "boton", "whatsapp"] as const
export type Origen = (typeof Origenes)[number]
