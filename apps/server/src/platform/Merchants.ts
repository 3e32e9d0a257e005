/** The merchant facts the services need, read fresh (suspension must hold across processes). */
import { SqlClient } from "@effect/sql"
import type { Instrument, Money } from "@switch/core"
import { Effect, Option } from "effect"

export interface MerchantRow {
  readonly id: string
  readonly codigo: string
  readonly nombre: string
  /** The merchant's own id (cédula or RIF): receiving accounts must be in this name. */
  readonly identificacion: string
  readonly tipo_doc: string | null
  readonly tipo: "empresa" | "personal"
  readonly estado: "pendiente" | "activo" | "suspendido"
  readonly kyc_tier: number
  readonly revisado: boolean
  /** When an operator approved the merchant for live mode; null until then. */
  readonly aprobado_at: Date | null
  readonly comision_bp: number | null
  readonly liquidacion_inmediata: boolean
  readonly pagar_habilitado: boolean
  readonly split_habilitado: boolean
  readonly tarjeta_habilitada: boolean
  /** The card surcharge the payer pays, in basis points (300: 3 %). */
  readonly recargo_tarjeta_bp: number
  /** The portal's refunds pilot (issue 33), off until an operator turns it on. */
  readonly reembolsos_habilitado: boolean
  readonly propina_max_bp: number | null
  readonly monto_min: StoredLimit | null
  readonly monto_max: StoredLimit | null
  readonly max_diario: StoredLimit | null
  readonly tope_diario: StoredLimit | null
  readonly tope_acumulado: StoredLimit | null
  /** The split's daily cap per beneficiary in cents, set by operators; null: core's default. */
  readonly tope_beneficiario_diario: number | null
  readonly cuenta_liquidacion: Instrument.Instrument | null
  readonly cuentas_aprobadas: ReadonlyArray<Instrument.Instrument>
  readonly created_at: Date
}

/** A money limit as stored: cents and currency. */
export interface StoredLimit {
  readonly cents: Money.Cents
  readonly moneda: Money.Currency
}

export const findMerchant = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<MerchantRow>`select * from comercios where id = ${id}`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)
