import { Conflict, Forbidden } from "@switch/api"
import { LinkMachine } from "@switch/core"
import { describe, expect, it } from "vitest"
import { simulateRefusal } from "./LinksService.js"
import type { LinkRow } from "./LinkView.js"

const row = { estado: "pendiente" } as LinkRow
const { Refusal } = LinkMachine

describe("simulateRefusal", () => {
  it("answers a live link and a suspended merchant with 403", () => {
    expect(simulateRefusal(Refusal.SoloModoPrueba({ error: "solo_modo_prueba" }), row)).toEqual(
      new Forbidden({ error: "solo_modo_prueba" })
    )
    expect(simulateRefusal(Refusal.ComercioSuspendido({ error: "comercio_suspendido" }), row)).toEqual(
      new Forbidden({ error: "comercio_suspendido" })
    )
  })

  it("answers every other refusal with 409 no_simulable and the link's state", () => {
    expect(simulateRefusal(Refusal.NoSimulable({ error: "no_simulable", estado: "pagado" }), row)).toEqual(
      new Conflict({ error: "no_simulable", estado: "pagado" })
    )
    expect(simulateRefusal(Refusal.LinkExpirado({ error: "link_expirado" }), row)).toEqual(
      new Conflict({ error: "no_simulable", estado: "pendiente" })
    )
    expect(
      simulateRefusal(
        Refusal.NoAplica({ error: "transicion_invalida", estado: "cancelado", evento: "Simular" }),
        row
      )
    ).toEqual(new Conflict({ error: "no_simulable", estado: "cancelado" }))
  })
})
