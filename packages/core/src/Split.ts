/**
 * The split pilot: a link's net shared among up to 5 beneficiaries. Reads the raw `split` of
 * `POST /links`, checks it against the merchant at creation, computes each share, and builds
 * the masked `reparto` view.
 *
 * Decisions SPEC leaves open:
 * - An empty `split` array is `split_invalido`: a link without split omits the field, so an
 *   empty list is a client mistake, not a way to say "no split".
 * - One `porcentaje` outside (0, 100] is `split_invalido` (a field rule); `split_excede_neto`
 *   (400) is kept for valid percentages whose sum passes 100.
 * - `detail` lists every problem found, each prefixed with its path (`split[1].monto: ...`).
 */
import { Either, Schema } from "effect"
import * as Fees from "./Fees.js"
import type { Instrument } from "./Instrument.js"
import * as InstrumentSchema from "./Instrument.js"
import type { BasisPoints, Cents } from "./Money.js"
import * as Money from "./Money.js"
import * as Validation from "./Validation.js"

/** Most beneficiaries one link may have. */
export const MAX_BENEFICIARIES = 5

/** A whole net: 100 % in basis points. */
export const FULL_PCT: BasisPoints = Money.BasisPoints(10_000)

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * Why a split is refused, with a Spanish detail. Core says what is wrong, not how it is
 * answered: the API maps each refusal to its SPEC code and HTTP status (`@switch/api`'s
 * `splitRefusal`).
 * - `Invalido`: the list or an entry is malformed (`split_invalido`).
 * - `MaxBeneficiarios`: more than {@link MAX_BENEFICIARIES} entries.
 * - `PorcentajesExceden`: valid percentages summing past 100 (a body rule).
 * - `NoDisponible`: the merchant has no split pilot.
 * - `RequiereLiquidacionInmediata`: the merchant does not settle each payment at once.
 * - `CuentaNoPreaprobada`: an account is not among the merchant's approved ones.
 * - `ExcedeNetoDelCobro`: the shares pass the net of the charge after commission (money, not form).
 * - `BeneficiarioBloqueado`: a security control blocks an account, or its share passes the daily
 *   cap per beneficiary.
 */
export type SplitRefusal =
  | { readonly _tag: "Invalido"; readonly detail: string }
  | { readonly _tag: "MaxBeneficiarios"; readonly detail: string }
  | { readonly _tag: "PorcentajesExceden"; readonly detail: string }
  | { readonly _tag: "NoDisponible"; readonly detail: string }
  | { readonly _tag: "RequiereLiquidacionInmediata"; readonly detail: string }
  | { readonly _tag: "CuentaNoPreaprobada"; readonly detail: string }
  | { readonly _tag: "ExcedeNetoDelCobro"; readonly detail: string }
  | { readonly _tag: "BeneficiarioBloqueado"; readonly detail: string }

const invalid = (issues: ReadonlyArray<string>): SplitRefusal => ({
  _tag: "Invalido",
  detail: issues.join("; ")
})

// ---------------------------------------------------------------------------------------------
// Entries

/** A beneficiary's share: a percentage of the net, or a fixed amount. */
export type Share =
  | { readonly _tag: "Porcentaje"; readonly bp: BasisPoints }
  | { readonly _tag: "Fijo"; readonly cents: Cents }

/** One decoded beneficiary of a split. */
export interface SplitEntry {
  readonly cuenta: Instrument
  readonly share: Share
}

const ENTRY_FIELDS = new Set(["cuenta", "porcentaje", "monto"])

const decodeCuenta = Validation.decode(InstrumentSchema.Instrument)

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decodePercent = (path: string, value: unknown): Either.Either<Share, string> => {
  if (typeof value !== "number") return Either.left(`${path}: debe ser un número`)
  return Either.match(Money.basisPointsFromPercent(value), {
    onLeft: (issue) => Either.left(`${path}: ${Money.issueMessage[issue]}`),
    onRight: (bp) =>
      bp <= 0
        ? Either.left(`${path}: debe ser mayor que 0`)
        : bp > FULL_PCT
          ? Either.left(`${path}: no puede ser mayor que 100`)
          : Either.right<Share>({ _tag: "Porcentaje", bp })
  })
}

const decodeAmount = (path: string, value: unknown): Either.Either<Share, string> => {
  if (typeof value !== "number") return Either.left(`${path}: debe ser un número`)
  return Either.match(Money.fromPositiveNumber(value), {
    onLeft: (issue) => Either.left(`${path}: ${Money.issueMessage[issue]}`),
    onRight: (cents) => Either.right<Share>({ _tag: "Fijo", cents })
  })
}

/** Reads one raw entry; on failure, every problem found with its path. */
const decodeEntry = (raw: unknown, index: number): Either.Either<SplitEntry, ReadonlyArray<string>> => {
  const at = `split[${index}]`
  if (!isRecord(raw)) return Either.left([`${at}: debe ser un objeto con cuenta y porcentaje o monto`])
  const issues: Array<string> = []
  for (const key of Object.keys(raw)) {
    if (!ENTRY_FIELDS.has(key)) issues.push(`${at}.${key}: campo no permitido`)
  }

  let cuenta: Instrument | undefined
  if (raw.cuenta === undefined) {
    issues.push(`${at}.cuenta: es obligatorio`)
  } else {
    Either.match(decodeCuenta(raw.cuenta), {
      onLeft: ({ fieldErrors }) => {
        for (const [field, messages] of Object.entries(fieldErrors)) {
          const path = field === Validation.ROOT ? `${at}.cuenta` : `${at}.cuenta.${field}`
          issues.push(`${path}: ${messages.join(", ")}`)
        }
      },
      onRight: (decoded) => {
        cuenta = decoded
      }
    })
  }

  let share: Share | undefined
  const hasPercent = raw.porcentaje !== undefined
  const hasAmount = raw.monto !== undefined
  if (hasPercent && hasAmount) {
    issues.push(`${at}: indique porcentaje o monto, no ambos`)
  } else if (!hasPercent && !hasAmount) {
    issues.push(`${at}: indique porcentaje o monto`)
  } else {
    Either.match(
      hasPercent ? decodePercent(`${at}.porcentaje`, raw.porcentaje) : decodeAmount(`${at}.monto`, raw.monto),
      {
        onLeft: (issue) => {
          issues.push(issue)
        },
        onRight: (decoded) => {
          share = decoded
        }
      }
    )
  }

  if (issues.length > 0 || cuenta === undefined || share === undefined) return Either.left(issues)
  return Either.right({ cuenta, share })
}

/** Sum of the percentage shares, in basis points. */
export const percentSum = (entries: ReadonlyArray<{ readonly share: Share }>): number =>
  entries.reduce((total, entry) => (entry.share._tag === "Porcentaje" ? total + entry.share.bp : total), 0)

/**
 * Reads the raw `split` of `POST /links`. Checks run in this order, the first failing one
 * answering: a non-empty array (`Invalido`), at most 5 entries (`MaxBeneficiarios`),
 * each entry well formed (`Invalido`, all entries' problems listed), then the
 * percentages summing to at most 100 (`PorcentajesExceden`).
 */
export const decode = (raw: unknown): Either.Either<ReadonlyArray<SplitEntry>, SplitRefusal> => {
  if (!Array.isArray(raw)) return Either.left(invalid(["split: debe ser una lista de beneficiarios"]))
  if (raw.length === 0) return Either.left(invalid(["split: debe tener al menos un beneficiario"]))
  if (raw.length > MAX_BENEFICIARIES) {
    return Either.left({
      _tag: "MaxBeneficiarios",
      detail: `split admite como máximo ${MAX_BENEFICIARIES} beneficiarios; se recibieron ${raw.length}`
    })
  }
  const entries: Array<SplitEntry> = []
  const issues: Array<string> = []
  raw.forEach((item, index) => {
    Either.match(decodeEntry(item, index), {
      onLeft: (found) => {
        issues.push(...found)
      },
      onRight: (entry) => {
        entries.push(entry)
      }
    })
  })
  if (issues.length > 0) return Either.left(invalid(issues))
  const pct = percentSum(entries)
  if (pct > FULL_PCT) {
    return Either.left({
      _tag: "PorcentajesExceden",
      detail: `los porcentajes suman ${Money.percentFromBasisPoints(Money.BasisPoints(pct))} %, más de 100 %`
    })
  }
  return Either.right(entries)
}

// ---------------------------------------------------------------------------------------------
// Allocation

/** A beneficiary's computed share: `sin_monto` when it rounds to 0 cents and is not paid. */
export interface Allocation {
  readonly index: number
  readonly monto: Cents
  readonly estado: "pendiente" | "sin_monto"
}

/** The net shared out, or `NoCubre` when the shares exceed it (nobody is paid; review). */
export type Allocated =
  | {
      readonly _tag: "Repartible"
      readonly shares: ReadonlyArray<Allocation>
      readonly montoComercio: Cents
    }
  | { readonly _tag: "NoCubre"; readonly requerido: Cents; readonly neto: Cents }

/** One share on a net: a percentage rounded down to the cent, or the fixed amount as given. */
export const shareOf = (net: Cents, share: Share): Cents =>
  share._tag === "Porcentaje" ? Money.percentage(net, share.bp, "down") : share.cents

/**
 * Shares a net among the split's entries. Rounding down leaves the leftover cents with the
 * merchant; when the shares together exceed the net nobody is paid (SPEC: the payment goes
 * to review). A negative net covers nothing.
 */
export const allocate = (net: Cents, entries: ReadonlyArray<{ readonly share: Share }>): Allocated => {
  const neto = Money.max(net, Money.zero)
  const shares = entries.map((entry, index): Allocation => {
    const monto = shareOf(neto, entry.share)
    return { index, monto, estado: monto > 0 ? "pendiente" : "sin_monto" }
  })
  const requerido = Money.sum(shares.map((share) => share.monto))
  if (net < 0 || requerido > neto) return { _tag: "NoCubre", requerido, neto: net }
  return { _tag: "Repartible", shares, montoComercio: Money.subtract(neto, requerido) }
}

// ---------------------------------------------------------------------------------------------
// Creation checks

/** What the creation checks need to know of the merchant. */
export interface MerchantSplitFacts {
  readonly splitHabilitado: boolean
  readonly liquidacionInmediata: boolean
  readonly approvedAccounts: ReadonlyArray<Instrument>
}

/** Whether an account is one the merchant approved: same type, bank, number and holder id. */
export const isApproved = (cuenta: Instrument, approved: ReadonlyArray<Instrument>): boolean =>
  approved.some((account) => InstrumentSchema.sameAccount(account, cuenta))

/**
 * Checks a decoded split against the merchant when the link is created. Order: the pilot is
 * active (`NoDisponible`), then immediate settlement (`RequiereLiquidacionInmediata`):
 * both are about the merchant and no change to the body fixes them; then every account is
 * approved (`CuentaNoPreaprobada`, naming all failing indexes); last, the shares fit
 * the net of the charge without tip (`ExcedeNetoDelCobro`), since the tip is not known yet.
 */
export const checkAtCreation = (input: {
  readonly entries: ReadonlyArray<SplitEntry>
  readonly merchant: MerchantSplitFacts
  readonly amount: Cents
  readonly commissionPct: BasisPoints
}): Either.Either<ReadonlyArray<SplitEntry>, SplitRefusal> => {
  const { entries, merchant } = input
  if (!merchant.splitHabilitado) {
    return Either.left({
      _tag: "NoDisponible",
      detail: "el reparto no está habilitado para este comercio"
    })
  }
  if (!merchant.liquidacionInmediata) {
    return Either.left({
      _tag: "RequiereLiquidacionInmediata",
      detail: "el reparto requiere liquidación inmediata"
    })
  }
  const notApproved = entries.flatMap((entry, index) =>
    isApproved(entry.cuenta, merchant.approvedAccounts) ? [] : [`split[${index}]`]
  )
  if (notApproved.length > 0) {
    return Either.left({
      _tag: "CuentaNoPreaprobada",
      detail: `${notApproved.join(", ")}: la cuenta no está entre las cuentas aprobadas del comercio`
    })
  }
  // Same computation as at settlement, with no tip: a later tip only adds to the net.
  const net = Fees.net({ amount: input.amount, tip: Money.zero, commissionPct: input.commissionPct }).neto
  const allocated = allocate(net, entries)
  if (allocated._tag === "NoCubre") {
    return Either.left({
      _tag: "ExcedeNetoDelCobro",
      detail: `el reparto (${Money.format(allocated.requerido)}) excede el neto del cobro (${Money.format(net)})`
    })
  }
  return Either.right(entries)
}

// ---------------------------------------------------------------------------------------------
// Reparto view

/** Overall state of a link's split. */
export const RepartoEstado = Schema.Literal("pendiente", "repartido", "en_revision", "cerrado")
export type RepartoEstado = typeof RepartoEstado.Type

/** State of one beneficiary's part. */
export const BeneficiarioEstado = Schema.Literal(
  "pendiente",
  "pagado",
  "en_revision",
  "sin_monto",
  "descartado"
)
export type BeneficiarioEstado = typeof BeneficiarioEstado.Type

/**
 * The split's state from its parts: any part in review → `en_revision`; every part paid or
 * with no amount → `repartido`; every part finished but some closed unpaid → `cerrado`;
 * otherwise `pendiente`.
 */
export const repartoEstado = (states: ReadonlyArray<BeneficiarioEstado>): RepartoEstado => {
  if (states.includes("en_revision")) return "en_revision"
  if (states.every((s) => s === "pagado" || s === "sin_monto")) return "repartido"
  if (states.every((s) => s === "pagado" || s === "sin_monto" || s === "descartado")) return "cerrado"
  return "pendiente"
}

/** A beneficiary as `reparto.beneficiarios[]` shows it: the account masked to its last 4. */
export interface BeneficiarioView {
  readonly banco: string
  readonly tipo: Instrument["tipo"]
  readonly ultimos4: string
  readonly nombre: string
  readonly porcentaje: BasisPoints | null
  readonly monto_fijo: Cents | null
  readonly monto: Cents
  readonly estado: BeneficiarioEstado
  readonly referencia_bancaria: string | null
  readonly liquidacion_txn_id: string | null
}

/** Last 4 characters of an account number or phone. */
export const ultimos4 = (valor: string): string => valor.slice(-4)

/** Masks a beneficiary for the `reparto` view; payment facts default to not yet paid. */
export const maskBeneficiary = (
  entry: SplitEntry,
  part: {
    readonly monto: Cents
    readonly estado: BeneficiarioEstado
    readonly referencia_bancaria?: string | null | undefined
    readonly liquidacion_txn_id?: string | null | undefined
  }
): BeneficiarioView => ({
  banco: entry.cuenta.banco,
  tipo: entry.cuenta.tipo,
  ultimos4: ultimos4(entry.cuenta.valor),
  nombre: entry.cuenta.nombre,
  porcentaje: entry.share._tag === "Porcentaje" ? entry.share.bp : null,
  monto_fijo: entry.share._tag === "Fijo" ? entry.share.cents : null,
  monto: part.monto,
  estado: part.estado,
  referencia_bancaria: part.referencia_bancaria ?? null,
  liquidacion_txn_id: part.liquidacion_txn_id ?? null
})

/** The `reparto` object of a link; amounts in cents, percentages in basis points. */
export interface RepartoView {
  readonly estado: RepartoEstado
  readonly moneda: string
  readonly monto_comercio: Cents
  readonly monto_repartido: Cents
  readonly beneficiarios: ReadonlyArray<BeneficiarioView>
}

/** Builds `reparto`: state from the parts, `monto_repartido` the sum of the parts paid. */
export const reparto = (input: {
  readonly moneda?: string | undefined
  readonly montoComercio: Cents
  readonly beneficiarios: ReadonlyArray<BeneficiarioView>
}): RepartoView => ({
  estado: repartoEstado(input.beneficiarios.map((b) => b.estado)),
  moneda: input.moneda ?? "VES",
  monto_comercio: input.montoComercio,
  monto_repartido: Money.sum(input.beneficiarios.filter((b) => b.estado === "pagado").map((b) => b.monto)),
  beneficiarios: input.beneficiarios
})

/** A stored `reparto` as the API shows it: amounts in bolivars, percentages as numbers. */
export const repartoJson = (stored: unknown): unknown => {
  if (stored === null || typeof stored !== "object") return stored
  const r = stored as RepartoView
  const bs = (cents: number) => Money.toNumber(Money.Cents(cents))
  return {
    estado: r.estado,
    moneda: r.moneda,
    monto_comercio: bs(r.monto_comercio),
    monto_repartido: bs(r.monto_repartido),
    beneficiarios: r.beneficiarios.map((b) => ({
      ...b,
      porcentaje: b.porcentaje === null ? null : Money.percentFromBasisPoints(b.porcentaje),
      monto_fijo: b.monto_fijo === null ? null : bs(b.monto_fijo),
      monto: bs(b.monto)
    }))
  }
}

// ---------------------------------------------------------------------------------------------
// Test mode: the settlement simulated

/** A beneficiary's part recorded as paid in test mode, under its own transaction id. */
export interface PagoSimulado {
  readonly txnId: string
  readonly monto: Cents
}

/**
 * What test mode does instead of paying the net of a paid link with immediate settlement
 * (SPEC "Split rules": in test mode the split is simulated):
 * - `EnRevision`: the net does not cover the split; nobody is paid, the `reparto` (every part
 *   `en_revision`) is stored, and nothing is settled nor `link.acreditado` sent;
 * - `SoloReparto`: the split takes the whole net; its parts are paid and `link.acreditado` says
 *   0 under the payer's payment id, with no settlement of the merchant's;
 * - `Liquidacion`: the merchant's part (the whole net without a split) is settled at once,
 *   after the split's parts are paid.
 * Every paid part and the settlement carry the bank reference `SIMULADO`.
 */
export type SimulatedSettlement =
  | { readonly _tag: "EnRevision"; readonly reparto: RepartoView }
  | {
      readonly _tag: "SoloReparto"
      readonly pagos: ReadonlyArray<PagoSimulado>
      readonly reparto: RepartoView
    }
  | {
      readonly _tag: "Liquidacion"
      readonly montoComercio: Cents
      readonly pagos: ReadonlyArray<PagoSimulado>
      /** None without a split. */
      readonly reparto: RepartoView | null
    }

/** The bank reference of every simulated payment. */
export const REFERENCIA_SIMULADA = "SIMULADO"

/**
 * Settles `neto` in test mode: shares it among `split` (none: the merchant takes it all) and
 * says what to record. `newId` names each paid part's transaction, in the split's order.
 */
export const simulateSettlement = (
  neto: Cents,
  split: ReadonlyArray<SplitEntry> | null,
  newId: () => string
): SimulatedSettlement => {
  if (split === null) return { _tag: "Liquidacion", montoComercio: neto, pagos: [], reparto: null }
  const allocated = allocate(neto, split)
  if (allocated._tag === "NoCubre") {
    return {
      _tag: "EnRevision",
      reparto: reparto({
        montoComercio: Money.zero,
        beneficiarios: split.map((entry) =>
          maskBeneficiary(entry, { monto: shareOf(neto, entry.share), estado: "en_revision" })
        )
      })
    }
  }
  const pagos: Array<PagoSimulado> = []
  const beneficiarios: Array<BeneficiarioView> = []
  for (const share of allocated.shares) {
    const entry = split[share.index]
    if (entry === undefined) continue
    if (share.estado === "sin_monto") {
      beneficiarios.push(maskBeneficiary(entry, { monto: share.monto, estado: "sin_monto" }))
      continue
    }
    const txnId = newId()
    pagos.push({ txnId, monto: share.monto })
    beneficiarios.push(
      maskBeneficiary(entry, {
        monto: share.monto,
        estado: "pagado",
        referencia_bancaria: REFERENCIA_SIMULADA,
        liquidacion_txn_id: txnId
      })
    )
  }
  const view = reparto({ montoComercio: allocated.montoComercio, beneficiarios })
  return allocated.montoComercio === 0
    ? { _tag: "SoloReparto", pagos, reparto: view }
    : { _tag: "Liquidacion", montoComercio: allocated.montoComercio, pagos, reparto: view }
}

/** The reparto with part `indice` changed; state and `monto_repartido` recomputed from the parts. */
export const withPart = (
  current: RepartoView,
  indice: number,
  change: Partial<Pick<BeneficiarioView, "estado" | "referencia_bancaria" | "liquidacion_txn_id">>
): RepartoView =>
  reparto({
    moneda: current.moneda,
    montoComercio: Money.Cents(current.monto_comercio),
    beneficiarios: current.beneficiarios.map((b, i) => (i === indice ? { ...b, ...change } : b))
  })

/** Whether the whole split finished: every part paid, without amount, or closed unpaid. */
export const terminado = (view: RepartoView): boolean =>
  view.estado === "repartido" || view.estado === "cerrado"

// ---------------------------------------------------------------------------------------------
// Security controls and the daily cap per beneficiary

/**
 * The daily cap per beneficiary when operators set none for the merchant: Bs 500.000,00 per
 * account per Venezuelan day, counting every part of the merchant's links of one mode paid to it
 * or at the bank for it.
 */
export const TOPE_BENEFICIARIO_DIARIO_DEFECTO: Cents = Money.Cents(50_000_000)

/** The merchant's cap per beneficiary: the one operators set, else the default. */
export const topeDiario = (set: number | null): Cents =>
  set === null ? TOPE_BENEFICIARIO_DIARIO_DEFECTO : Money.Cents(set)

/** The key of a beneficiary account: type, bank and number, the holder aside. */
export const cuentaClave = (cuenta: Pick<Instrument, "tipo" | "banco" | "valor">): string =>
  `${cuenta.tipo === "cuenta" ? "c" : "t"}-${cuenta.banco}-${cuenta.valor.replace(/\D/g, "")}`

/** What the security controls and the cap know when a split is checked. */
export interface Controles {
  /** Keys ({@link cuentaClave}) of the accounts a security control blocks. */
  readonly bloqueadas: ReadonlySet<string>
  /** The merchant's daily cap per beneficiary, in cents. */
  readonly topeDiario: Cents
  /** What each account (by key) was paid today or has at the bank, over the merchant's links of this mode. */
  readonly usadoHoy: ReadonlyMap<string, number>
}

/** Why a part may not be paid now. */
export type Bloqueo =
  | { readonly _tag: "NoAprobada" }
  | { readonly _tag: "Bloqueada" }
  | { readonly _tag: "TopeDiario"; readonly tope: Cents; readonly usado: Cents; readonly monto: Cents }

/** A {@link Bloqueo} in the words the operators' queue and the logs use. */
export const motivoBloqueo = (bloqueo: Bloqueo): string => {
  switch (bloqueo._tag) {
    case "NoAprobada":
      return "la cuenta ya no está entre las cuentas aprobadas del comercio"
    case "Bloqueada":
      return "un control de seguridad bloquea la cuenta"
    case "TopeDiario":
      return `supera el tope diario por beneficiario (${Money.format(bloqueo.tope)}; hoy ${Money.format(bloqueo.usado)} más ${Money.format(bloqueo.monto)})`
  }
}

const controlOf = (clave: string, monto: Cents, controles: Controles): Bloqueo | null => {
  if (controles.bloqueadas.has(clave)) return { _tag: "Bloqueada" }
  const usado = Money.Cents(controles.usadoHoy.get(clave) ?? 0)
  if (usado + monto > controles.topeDiario)
    return { _tag: "TopeDiario", tope: controles.topeDiario, usado, monto }
  return null
}

/**
 * The checks before paying one part (SPEC: "Before paying each account the approval, security
 * controls and daily cap are re-checked"): the account still approved (same type, bank, number
 * and holder id), no control blocking it, and what it was paid today plus this part within the
 * cap. None when the part may be paid.
 */
export const checkPart = (input: {
  readonly cuenta: Instrument
  readonly monto: Cents
  readonly approved: ReadonlyArray<Instrument>
  readonly controles: Controles
}): Bloqueo | null =>
  isApproved(input.cuenta, input.approved)
    ? controlOf(cuentaClave(input.cuenta), input.monto, input.controles)
    : { _tag: "NoAprobada" }

/**
 * The controls at creation (`split_beneficiario_bloqueado`, naming every failing index): no
 * account blocked, and each account's shares of this charge (the net without tip, as
 * {@link checkAtCreation} computes it; two entries of one account add up) plus what it was paid
 * today within the cap. Run after {@link checkAtCreation}.
 */
export const checkControlsAtCreation = (input: {
  readonly entries: ReadonlyArray<SplitEntry>
  readonly amount: Cents
  readonly commissionPct: BasisPoints
  readonly controles: Controles
}): Either.Either<ReadonlyArray<SplitEntry>, SplitRefusal> => {
  const net = Fees.net({ amount: input.amount, tip: Money.zero, commissionPct: input.commissionPct }).neto
  const porCuenta = new Map<string, number>()
  for (const entry of input.entries) {
    const clave = cuentaClave(entry.cuenta)
    porCuenta.set(clave, (porCuenta.get(clave) ?? 0) + shareOf(Money.max(net, Money.zero), entry.share))
  }
  const issues = input.entries.flatMap((entry, index) => {
    const clave = cuentaClave(entry.cuenta)
    const bloqueo = controlOf(clave, Money.Cents(porCuenta.get(clave) ?? 0), input.controles)
    return bloqueo === null ? [] : [`split[${index}]: ${motivoBloqueo(bloqueo)}`]
  })
  return issues.length === 0
    ? Either.right(input.entries)
    : Either.left({ _tag: "BeneficiarioBloqueado", detail: issues.join("; ") })
}

// ---------------------------------------------------------------------------------------------
// Live mode: each part paid through the bank

/**
 * How a live split starts once the bank confirmed the payer's payment:
 * - `Repartir`: parts with an amount `pendiente` (each to be re-checked and paid), those under a
 *   cent `sin_monto`;
 * - `EnRevision`: nobody is paid and every part with an amount waits for a person, because the
 *   net does not cover the split (`no_cubre`; the merchant keeps 0 until a person decides) or the
 *   merchant's immediate settlement was turned off after the link was made
 *   (`sin_liquidacion_inmediata`).
 */
export type PlanLive =
  | { readonly _tag: "Repartir"; readonly reparto: RepartoView }
  | {
      readonly _tag: "EnRevision"
      readonly motivo: "no_cubre" | "sin_liquidacion_inmediata"
      readonly reparto: RepartoView
    }

/** Plans the live split of `neto` over `split` (SPEC "Split rules"). */
export const planLive = (
  neto: Cents,
  split: ReadonlyArray<SplitEntry>,
  merchant: { readonly liquidacionInmediata: boolean }
): PlanLive => {
  const allocated = allocate(neto, split)
  if (allocated._tag === "NoCubre") {
    return {
      _tag: "EnRevision",
      motivo: "no_cubre",
      reparto: reparto({
        montoComercio: Money.zero,
        beneficiarios: split.map((entry) =>
          maskBeneficiary(entry, {
            monto: shareOf(Money.max(neto, Money.zero), entry.share),
            estado: "en_revision"
          })
        )
      })
    }
  }
  const review = !merchant.liquidacionInmediata
  const beneficiarios = allocated.shares.flatMap((share) => {
    const entry = split[share.index]
    if (entry === undefined) return []
    const estado: BeneficiarioEstado =
      share.estado === "sin_monto" ? "sin_monto" : review ? "en_revision" : "pendiente"
    return [maskBeneficiary(entry, { monto: share.monto, estado })]
  })
  const view = reparto({ montoComercio: allocated.montoComercio, beneficiarios })
  return review
    ? { _tag: "EnRevision", motivo: "sin_liquidacion_inmediata", reparto: view }
    : { _tag: "Repartir", reparto: view }
}

/**
 * What a bank answer to a part's credit order makes of the part: `pagado` when settled with a
 * reference; `en_curso` while the bank has it accepted or pending (asked again, never resent);
 * `en_revision` for a rejection or any answer that is not clear (SPEC: "without a clear bank
 * answer it goes to review"), still asked again while unclear.
 */
export const afterCredit = (answer: {
  readonly estado: "ACEPTADA" | "PENDIENTE" | "LIQUIDADA" | "RECHAZADA" | "ERROR" | "DESCONOCIDA"
  readonly referencia_banco: string | null
}): "pagado" | "en_curso" | "en_revision" => {
  switch (answer.estado) {
    case "LIQUIDADA":
      return answer.referencia_banco === null ? "en_revision" : "pagado"
    case "ACEPTADA":
    case "PENDIENTE":
      return "en_curso"
    case "RECHAZADA":
    case "ERROR":
    case "DESCONOCIDA":
      return "en_revision"
  }
}

// ---------------------------------------------------------------------------------------------
// The link's `split` as a merchant sees it

/**
 * A stored `split` as the link shows it to its merchant (API, portal, the merchant's own link):
 * each account masked to `banco`, `tipo`, `ultimos4` and `nombre`, as `reparto` shows it; the
 * share (`porcentaje` or `monto`) as given. Anything that is not a list is shown as it is.
 */
export const maskedSplitJson = (stored: unknown): unknown => {
  if (!Array.isArray(stored)) return stored
  return stored.map((entry: unknown) => {
    if (!isRecord(entry)) return entry
    const { cuenta, ...share } = entry
    if (!isRecord(cuenta)) return share
    return {
      cuenta: {
        banco: cuenta.banco,
        tipo: cuenta.tipo,
        ultimos4: typeof cuenta.valor === "string" ? ultimos4(cuenta.valor) : null,
        nombre: cuenta.nombre
      },
      ...share
    }
  })
}
