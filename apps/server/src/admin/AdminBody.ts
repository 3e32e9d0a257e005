/**
 * Bodies of the operators' admin API and the pure rules that apply them to a merchant row:
 * which fields a PATCH may carry, how percentages and money limits are stored, and the
 * settlement account a merchant will have (checked, and in its own name, by core's `Instrument`).
 */
import { Amount, Fees, Instrument, Money, Split, Validation } from "@switch/core"
import { Either, ParseResult, Schema } from "effect"
import type { MerchantRow, StoredLimit } from "../platform/Merchants.js"

/** A percentage from 0 to 100 with at most 2 decimals, read into basis points. */
const Percent = Schema.transformOrFail(
  Schema.Number.annotations({ message: () => "debe ser un número" }),
  Schema.Number,
  {
    strict: true,
    decode: (n, _, ast) =>
      Either.match(Money.basisPointsFromPercent(n), {
        onLeft: (issue) => ParseResult.fail(new ParseResult.Type(ast, n, Money.issueMessage[issue])),
        onRight: (bp) =>
          bp <= 10_000
            ? ParseResult.succeed(bp)
            : ParseResult.fail(new ParseResult.Type(ast, n, "debe estar entre 0 y 100"))
      }),
    encode: (bp) => ParseResult.succeed(Money.percentFromBasisPoints(Money.BasisPoints(bp)))
  }
)

const Flag = Schema.Boolean.annotations({ message: () => "debe ser true o false" })

/** A money limit as the operator writes it: `{monto, moneda}`, stored as `{cents, moneda}`. */
const Limit = Schema.Struct({
  monto: Amount.PositiveAmount,
  moneda: Schema.Literal(...Money.Currencies).annotations({ message: () => "debe ser VES o USD" })
})

const Nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optional(Schema.NullOr(schema))

/** `PATCH /admin/v1/comercios/{codigo}`: every field optional; `null` clears a limit or an override. */
export const PatchBody = Schema.Struct({
  estado: Schema.optional(
    Schema.Literal("activo", "suspendido").annotations({ message: () => "debe ser activo o suspendido" })
  ),
  comision_pct: Nullable(Percent),
  liquidacion_inmediata: Schema.optional(Flag),
  pagar_habilitado: Schema.optional(Flag),
  split_habilitado: Schema.optional(Flag),
  tarjeta_habilitada: Schema.optional(Flag),
  /** The card pilot's surcharge the payer pays (3 by default). */
  recargo_tarjeta_pct: Schema.optional(Percent),
  reembolsos_habilitado: Schema.optional(Flag),
  propina_max_pct: Nullable(Percent),
  monto_min: Nullable(Limit),
  monto_max: Nullable(Limit),
  max_diario: Nullable(Limit),
  tope_diario: Nullable(Limit),
  tope_acumulado: Nullable(Limit),
  /** The split's daily cap per beneficiary in bolivars; `null` goes back to the default. */
  tope_beneficiario_diario: Nullable(Amount.PositiveAmount),
  cuenta_liquidacion: Nullable(Instrument.Instrument)
})
export type PatchBody = typeof PatchBody.Type

/** `POST /admin/v1/comercios/{codigo}/aprobar`: the settlement account may come with the approval. */
export const ApproveBody = Schema.Struct({
  cuenta_liquidacion: Schema.optional(Instrument.Instrument)
})

/** Largest rate `numeric(20, 8)` holds: 12 integer digits. */
const MAX_RATE_SCALED = 10n ** 12n * 100_000_000n

const RateSchema = Schema.declare(
  (u): u is Money.Rate => typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "Rate"
)

/** `PUT /admin/v1/tasa-bcv`: `ves_por_usd` greater than 0 with up to 8 decimals (a number or its text). */
export const TasaBody = Schema.Struct({
  ves_por_usd: Schema.transformOrFail(
    Schema.Union(Schema.Number, Schema.String).annotations({ message: () => "debe ser un número" }),
    RateSchema,
    {
      strict: true,
      decode: (value, _, ast) => {
        const rate = Money.rate(value)
        if (Either.isLeft(rate)) {
          const message =
            rate.left === "decimales" ? "admite como máximo 8 decimales" : Money.issueMessage[rate.left]
          return ParseResult.fail(new ParseResult.Type(ast, value, message))
        }
        return rate.right.scaled < MAX_RATE_SCALED
          ? ParseResult.succeed(rate.right)
          : ParseResult.fail(new ParseResult.Type(ast, value, "excede la tasa máxima permitida"))
      },
      encode: (rate) => ParseResult.succeed(Money.rateToNumber(rate))
    }
  )
})

/**
 * Decodes strictly (unknown fields refused, every issue reported). Unlike `Validation.decode`,
 * `null` is kept: in a PATCH it means "clear this field".
 */
export const decode =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (input: unknown): Either.Either<A, Validation.FieldErrors> =>
    Either.mapLeft(Schema.decodeUnknownEither(schema, Validation.strict)(input), Validation.fieldErrors)

/** A merchant row as the admin API reads it: every column. */
export interface AdminRow extends MerchantRow {
  readonly email: string
}

const toStored = (limit: typeof Limit.Type | null): StoredLimit | null =>
  limit === null ? null : { cents: limit.monto, moneda: limit.moneda }

/** Why a patch cannot apply. */
export type PatchFailure =
  | { readonly _tag: "Invalid"; readonly detail: Validation.FieldErrors }
  /** `estado: "activo"` on a merchant never approved: approval is `POST .../aprobar`. */
  | { readonly _tag: "RequiresApproval" }
  /** An approved merchant (or one being approved) without a settlement account. */
  | { readonly _tag: "AccountRequired" }

/**
 * The settlement account a merchant will have: `given` (`null` clears it, `undefined` keeps the
 * one on record), checked and in the merchant's own name. An approved merchant, or one being
 * approved (`required`), must have one: live money never reaches the bank without it.
 */
export const settlementAccount = (
  row: AdminRow,
  given: Instrument.Instrument | null | undefined,
  required = true
): Either.Either<Instrument.Instrument | null, PatchFailure> => {
  if (given === undefined || given === null) {
    const cuenta = given === null ? null : row.cuenta_liquidacion
    return cuenta === null && required ? Either.left({ _tag: "AccountRequired" }) : Either.right(cuenta)
  }
  const checked = Instrument.check("cuenta_liquidacion", given)
  if (Either.isLeft(checked)) return Either.left({ _tag: "Invalid", detail: checked.left })
  if (!Instrument.isOwnedBy(checked.right, row)) {
    return Either.left({
      _tag: "Invalid",
      detail: Validation.fieldError(
        "cuenta_liquidacion.identificacion",
        "la cuenta de liquidación debe estar a nombre del comercio"
      )
    })
  }
  return Either.right(checked.right)
}

/**
 * The merchant after a patch. `estado: "activo"` lifts a suspension: the merchant goes back to
 * `activo` if it was approved (KYC tier 1 or more), else to `pendiente`; it never skips approval.
 */
export const applyPatch = (row: AdminRow, patch: PatchBody): Either.Either<AdminRow, PatchFailure> => {
  const invalid = (detail: Validation.FieldErrors) => Either.left<PatchFailure>({ _tag: "Invalid", detail })
  if (Object.values(patch).every((value) => value === undefined)) {
    return invalid(Validation.fieldError(Validation.ROOT, "indica al menos un campo"))
  }
  const cuenta = settlementAccount(row, patch.cuenta_liquidacion, row.aprobado_at !== null)
  if (Either.isLeft(cuenta)) return Either.left(cuenta.left)
  const cuentaLiquidacion = cuenta.right
  const pick = <K extends keyof AdminRow>(key: K, value: AdminRow[K] | undefined): AdminRow[K] =>
    value === undefined ? row[key] : value
  const limit = (key: "monto_min" | "monto_max" | "max_diario" | "tope_diario" | "tope_acumulado") => {
    const value = patch[key]
    return value === undefined ? row[key] : toStored(value)
  }
  let estado = row.estado
  if (patch.estado === "suspendido") estado = "suspendido"
  if (patch.estado === "activo") {
    if (row.estado === "pendiente") return Either.left({ _tag: "RequiresApproval" })
    if (row.estado === "suspendido") estado = row.kyc_tier >= 1 ? "activo" : "pendiente"
  }
  const next: AdminRow = {
    ...row,
    estado,
    comision_bp: pick("comision_bp", patch.comision_pct),
    liquidacion_inmediata: pick("liquidacion_inmediata", patch.liquidacion_inmediata),
    pagar_habilitado: pick("pagar_habilitado", patch.pagar_habilitado),
    split_habilitado: pick("split_habilitado", patch.split_habilitado),
    tarjeta_habilitada: pick("tarjeta_habilitada", patch.tarjeta_habilitada),
    recargo_tarjeta_bp: pick("recargo_tarjeta_bp", patch.recargo_tarjeta_pct),
    reembolsos_habilitado: pick("reembolsos_habilitado", patch.reembolsos_habilitado),
    propina_max_bp: pick("propina_max_bp", patch.propina_max_pct),
    monto_min: limit("monto_min"),
    monto_max: limit("monto_max"),
    max_diario: limit("max_diario"),
    tope_diario: limit("tope_diario"),
    tope_acumulado: limit("tope_acumulado"),
    tope_beneficiario_diario: pick("tope_beneficiario_diario", patch.tope_beneficiario_diario),
    cuenta_liquidacion: cuentaLiquidacion
  }
  // Limits in different currencies compare only at a rate; the per-charge check handles those.
  if (
    next.monto_min !== null &&
    next.monto_max !== null &&
    next.monto_min.moneda === next.monto_max.moneda &&
    next.monto_min.cents > next.monto_max.cents
  ) {
    return invalid(Validation.fieldError("monto_min", "no puede ser mayor que monto_max"))
  }
  return Either.right(next)
}

const limitView = (limit: StoredLimit | null) =>
  limit === null ? null : { monto: Money.toNumber(limit.cents), moneda: limit.moneda }

const percent = (bp: number | null) =>
  bp === null ? null : Money.percentFromBasisPoints(Money.BasisPoints(bp))

/** The full admin view of a merchant: every column, limits as `{monto, moneda}`, percentages as numbers. */
export const adminView = (row: AdminRow) => ({
  id: row.id,
  codigo: row.codigo,
  nombre: row.nombre,
  identificacion: row.identificacion,
  tipo_doc: row.tipo_doc,
  email: row.email,
  tipo: row.tipo,
  estado: row.estado,
  kyc_tier: row.kyc_tier,
  revisado: row.revisado,
  aprobado_at: row.aprobado_at === null ? null : row.aprobado_at.toISOString(),
  comision_pct: Money.percentFromBasisPoints(
    Fees.commissionPctFor(row.comision_bp === null ? null : Money.BasisPoints(row.comision_bp))
  ),
  comision_acordada: row.comision_bp !== null,
  liquidacion_inmediata: row.liquidacion_inmediata,
  pagar_habilitado: row.pagar_habilitado,
  split_habilitado: row.split_habilitado,
  tarjeta_habilitada: row.tarjeta_habilitada,
  recargo_tarjeta_pct: percent(row.recargo_tarjeta_bp),
  reembolsos_habilitado: row.reembolsos_habilitado,
  propina_max_pct: percent(row.propina_max_bp),
  monto_min: limitView(row.monto_min),
  monto_max: limitView(row.monto_max),
  max_diario: limitView(row.max_diario),
  tope_diario: limitView(row.tope_diario),
  tope_acumulado: limitView(row.tope_acumulado),
  tope_beneficiario_diario:
    row.tope_beneficiario_diario === null ? null : Money.toNumber(Money.Cents(row.tope_beneficiario_diario)),
  tope_beneficiario_diario_efectivo: Money.toNumber(Split.topeDiario(row.tope_beneficiario_diario)),
  cuenta_liquidacion: row.cuenta_liquidacion,
  cuentas_aprobadas: row.cuentas_aprobadas,
  created_at: row.created_at.toISOString()
})
