import type { Ports } from "@switch/core"
import { describe, expect, it } from "vitest"
import { decide, NOT_DONE, shouldAsk } from "./Reconcile.js"

const T0 = new Date("2026-11-21T14:00:00Z")
const later = (ms: number) => new Date(T0.getTime() + ms)
const answer = (estado: Ports.BankAnswer["estado"]): Ports.BankAnswer => ({
  estado,
  referencia_banco: estado === "LIQUIDADA" ? "REF1" : null,
  endtoend: null,
  motivo_rechazo: estado === "RECHAZADA" ? "SALDO_INSUFICIENTE" : null
})
const attempt = (estado: string) => ({ estado, created_at: T0, actualizado_at: T0 })

describe("page reconciliation decisions", () => {
  it("does not ask about an attempt whose own bank call may still run (three timeouts and 5 s)", () => {
    expect(shouldAsk(attempt("ENVIANDO"), later(49_999), 15_000)).toBe(false)
    expect(shouldAsk(attempt("ENVIANDO"), later(50_000), 15_000)).toBe(true)
    expect(shouldAsk(attempt("DESCONOCIDA"), later(1), 15_000)).toBe(true)
  })

  it("applies every final answer, whatever the link shows", () => {
    for (const linkEstado of ["cobrando", "procesando", "revision"] as const) {
      for (const estado of ["LIQUIDADA", "RECHAZADA"] as const) {
        const out = decide({
          linkEstado,
          attempt: attempt("PENDIENTE"),
          answer: answer(estado),
          at: T0,
          abandonMs: 1
        })
        expect(out).toEqual({ _tag: "Aplicar", answer: answer(estado) })
      }
    }
  })

  it("an open answer leaves a processing link as it is, and no news never demotes it to revision", () => {
    for (const estado of ["ACEPTADA", "PENDIENTE", "DESCONOCIDA"] as const) {
      const out = decide({
        linkEstado: "procesando",
        attempt: attempt("PENDIENTE"),
        answer: answer(estado),
        at: later(10 * 3600_000),
        abandonMs: 1
      })
      expect(out).toEqual({ _tag: "Esperar" })
    }
  })

  it("a lost sending attempt the bank does not know becomes unknown (revision)", () => {
    const out = decide({
      linkEstado: "cobrando",
      attempt: attempt("ENVIANDO"),
      answer: answer("DESCONOCIDA"),
      at: later(60_000),
      abandonMs: 4 * 3600_000
    })
    expect(out).toEqual({ _tag: "Aplicar", answer: answer("DESCONOCIDA") })
  })

  it("an order the bank acknowledged is never given up on because a later query fails", () => {
    for (const estado of ["ACEPTADA", "PENDIENTE"]) {
      const out = decide({
        linkEstado: "revision",
        attempt: attempt(estado),
        answer: answer("DESCONOCIDA"),
        at: later(10 * 3600_000),
        abandonMs: 4 * 3600_000
      })
      expect(out).toEqual({ _tag: "Esperar" })
    }
    // Its acknowledgement is applied, so the attempt leaves DESCONOCIDA (Settle.ts).
    const acknowledged = decide({
      linkEstado: "revision",
      attempt: attempt("DESCONOCIDA"),
      answer: answer("PENDIENTE"),
      at: later(60_000),
      abandonMs: 4 * 3600_000
    })
    expect(acknowledged).toEqual({ _tag: "Aplicar", answer: answer("PENDIENTE") })
  })

  it("an order the bank says it never received is settled as not done after the abandon window, never before", () => {
    const input = {
      linkEstado: "revision" as const,
      attempt: attempt("DESCONOCIDA"),
      answer: { ...answer("DESCONOCIDA"), noRecibida: true }
    }
    expect(decide({ ...input, at: later(4 * 3600_000 - 1), abandonMs: 4 * 3600_000 })).toEqual({
      _tag: "Esperar"
    })
    expect(decide({ ...input, at: later(4 * 3600_000), abandonMs: 4 * 3600_000 })).toEqual({
      _tag: "Aplicar",
      answer: NOT_DONE
    })
    expect(NOT_DONE).toMatchObject({ estado: "RECHAZADA", motivo_rechazo: "BANCO_NO_DISPONIBLE" })
  })

  it("an order unresolved after the window whose query fails goes to review, never settled as not done", () => {
    const input = {
      linkEstado: "revision" as const,
      attempt: attempt("DESCONOCIDA"),
      answer: answer("DESCONOCIDA")
    }
    expect(decide({ ...input, at: later(4 * 3600_000 - 1), abandonMs: 4 * 3600_000 })).toEqual({
      _tag: "Esperar"
    })
    for (const ms of [4 * 3600_000, 48 * 3600_000])
      expect(decide({ ...input, at: later(ms), abandonMs: 4 * 3600_000 })).toEqual({ _tag: "Revision" })
  })
})
