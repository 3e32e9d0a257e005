/**
 * The simulated processor's state, in memory: charges opened by the service, what the payer did
 * on the hosted form, and the nightly closes. Test card numbers decide the outcome:
 *
 *   4111 1111 1111 1111   approved, callback `cargo.aprobado`
 *   4000 0000 0000 0002   declined, callback `cargo.rechazado`
 *   4000 0000 0000 0119   approved without any callback (a charge with no answer: only a query
 *                         or the nightly close tell the service)
 *   any other number      declined, callback `cargo.rechazado`
 *
 * A charge is final once approved, declined, expired or closed: a form past its `expira_en`, or
 * closed by the service's query with `cerrar`, can no longer be paid, so "nothing charged" stays
 * true. The nightly close of a Caracas day lists the charges approved that day, except those a
 * test asked to leave out (`omitirDelCierre`), to exercise the service's review queue.
 */
import { randomUUID } from "node:crypto"
import { BankCalendar } from "@switch/core"

export const TARJETAS = {
  aprobada: "4111111111111111",
  rechazada: "4000000000000002",
  sinRespuesta: "4000000000000119"
} as const

export type EstadoCargo = "abierto" | "aprobado" | "rechazado" | "vencido" | "cerrado"

export interface Cargo {
  readonly cargo_id: string
  readonly link_id: string
  readonly monto: number
  readonly url_retorno: string
  readonly url_callback: string
  readonly expira_en: Date
  readonly creado_en: Date
  estado: EstadoCargo
  referencia: string | null
  aprobado_en: Date | null
  /** Last four digits of the card, as a receipt shows them; the full number is never kept. */
  ultimos4: string | null
}

export interface Callback {
  readonly id: string
  readonly evento: "cargo.aprobado" | "cargo.rechazado"
  readonly cargo_id: string
  readonly referencia: string | null
  readonly monto: number
  readonly creado_en: string
}

export interface Credito {
  readonly cargo_id: string
  readonly referencia: string
  readonly monto: number
}

export interface Config {
  /** Shifts the simulator's clock (expiry, approval day, close). */
  relojDesfaseMs: number
  /** Charges left out of the nightly close. */
  omitirDelCierre: Array<string>
  /** How long after a Caracas day ends its close is run on the first read (1 h). */
  cierreTrasMs: number
  /** How many of the next form openings fail with 503 before anything is recorded (an outage). */
  fallarAperturas: number
}

/** The outcome of a form submission. */
export type Resultado =
  | { readonly _tag: "Aprobado"; readonly cargo: Cargo; readonly callback: Callback | null }
  | { readonly _tag: "Rechazado"; readonly cargo: Cargo; readonly callback: Callback | null }
  | { readonly _tag: "NoDisponible"; readonly motivo: "no_existe" | "vencido" | "finalizado" }

export class Processor {
  readonly cargos = new Map<string, Cargo>()
  readonly cierres = new Map<string, ReadonlyArray<Credito>>()
  readonly callbacksEnviados: Array<Callback> = []
  config: Config = { relojDesfaseMs: 0, omitirDelCierre: [], cierreTrasMs: 3600_000, fallarAperturas: 0 }
  private secuencia = 0

  now(): Date {
    return new Date(Date.now() + this.config.relojDesfaseMs)
  }

  /** Opens a form; the same `cargo_id` again answers the same charge. */
  abrir(input: Omit<Cargo, "estado" | "referencia" | "aprobado_en" | "ultimos4" | "creado_en">): Cargo {
    const existing = this.cargos.get(input.cargo_id)
    if (existing !== undefined) return existing
    const cargo: Cargo = {
      ...input,
      creado_en: this.now(),
      estado: "abierto",
      referencia: null,
      aprobado_en: null,
      ultimos4: null
    }
    this.cargos.set(cargo.cargo_id, cargo)
    return cargo
  }

  /** The charge as it stands now: an open form past its expiry is `vencido`. */
  consultar(cargoId: string): Cargo | undefined {
    const cargo = this.cargos.get(cargoId)
    if (
      cargo !== undefined &&
      cargo.estado === "abierto" &&
      cargo.expira_en.getTime() <= this.now().getTime()
    )
      cargo.estado = "vencido"
    return cargo
  }

  /** The service's query with `cerrar`: an open form is closed, so nothing can be charged on it. */
  cerrar(cargoId: string): Cargo | undefined {
    const cargo = this.consultar(cargoId)
    if (cargo?.estado === "abierto") cargo.estado = "cerrado"
    return cargo
  }

  /** The payer submitted the hosted form. */
  pagar(cargoId: string, numero: string): Resultado {
    const cargo = this.consultar(cargoId)
    if (cargo === undefined) return { _tag: "NoDisponible", motivo: "no_existe" }
    if (cargo.estado === "vencido") return { _tag: "NoDisponible", motivo: "vencido" }
    if (cargo.estado !== "abierto") return { _tag: "NoDisponible", motivo: "finalizado" }
    const digits = numero.replace(/[\s-]/g, "")
    cargo.ultimos4 = digits.slice(-4)
    if (digits === TARJETAS.aprobada || digits === TARJETAS.sinRespuesta) {
      cargo.estado = "aprobado"
      cargo.aprobado_en = this.now()
      cargo.referencia = `TJ${String(++this.secuencia).padStart(8, "0")}`
      return {
        _tag: "Aprobado",
        cargo,
        callback: digits === TARJETAS.aprobada ? this.callback("cargo.aprobado", cargo) : null
      }
    }
    cargo.estado = "rechazado"
    return {
      _tag: "Rechazado",
      cargo,
      callback: this.callback("cargo.rechazado", cargo)
    }
  }

  private callback(evento: Callback["evento"], cargo: Cargo): Callback {
    const callback: Callback = {
      id: `evt_${randomUUID()}`,
      evento,
      cargo_id: cargo.cargo_id,
      referencia: cargo.referencia,
      monto: cargo.monto,
      creado_en: this.now().toISOString()
    }
    this.callbacksEnviados.push(callback)
    return callback
  }

  /**
   * The nightly close of Caracas day `dia` (YYYY-MM-DD): the charges approved that day, credited.
   * Run on the first read after the day ended plus `cierreTrasMs`, or at once when `forzar`.
   */
  cierre(dia: string, forzar = false): ReadonlyArray<Credito> | null {
    const done = this.cierres.get(dia)
    if (done !== undefined) return done
    const start = new Date(`${dia}T04:00:00Z`)
    if (Number.isNaN(start.getTime())) return null
    const end = start.getTime() + BankCalendar.DAY_MS
    if (!forzar && this.now().getTime() < end + this.config.cierreTrasMs) return null
    const creditos = [...this.cargos.values()]
      .filter(
        (c) =>
          c.estado === "aprobado" &&
          c.aprobado_en !== null &&
          BankCalendar.caracasDayKey(c.aprobado_en) === dia &&
          !this.config.omitirDelCierre.includes(c.cargo_id)
      )
      .map((c) => ({ cargo_id: c.cargo_id, referencia: c.referencia ?? "", monto: c.monto }))
    this.cierres.set(dia, creditos)
    return creditos
  }

  reiniciar(): void {
    this.cargos.clear()
    this.cierres.clear()
    this.callbacksEnviados.length = 0
    this.config = { relojDesfaseMs: 0, omitirDelCierre: [], cierreTrasMs: 3600_000, fallarAperturas: 0 }
  }
}
