import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import {
  canMove,
  FinalStates,
  InFlightStates,
  isInFlight,
  LinkEffect,
  LinkEvent,
  type LinkSnapshot,
  LinkStates,
  Moves,
  transition,
  visibleState
} from "./LinkMachine.js"

const now = new Date("2026-11-20T12:00:00Z")
const link = (over: Partial<LinkSnapshot> = {}): LinkSnapshot => ({
  estado: "pendiente",
  mode: "test",
  expiresAt: new Date("2026-11-21T12:00:00Z"),
  metodo: null,
  failureUrl: null,
  successUrl: null,
  comercioSuspendido: false,
  liquidacionInmediata: false,
  tarjetaHabilitada: false,
  tieneSplit: false,
  ...over
})
const to = (l: LinkSnapshot, e: LinkEvent, at = now) => Either.map(transition(l, e, at), (t) => t.to)
const refusal = (l: LinkSnapshot, e: LinkEvent, at = now) =>
  Either.match(transition(l, e, at), { onLeft: (r) => r, onRight: () => undefined })

describe("link state machine", () => {
  it("every state is exactly one of pendiente, in flight (cobrando, procesando, revision) or final", () => {
    expect(InFlightStates).toEqual(["cobrando", "procesando", "revision"])
    for (const estado of LinkStates) {
      const kinds = [estado === "pendiente", isInFlight(estado), FinalStates.includes(estado)]
      expect(kinds.filter(Boolean)).toHaveLength(1)
    }
  })

  it("cancels only a pendiente link, returning the payer to failure_url", () => {
    const result = Either.getOrThrow(
      transition(link({ failureUrl: "https://t.co/f" }), LinkEvent.Cancelar(), now)
    )
    expect(result.to).toBe("cancelado")
    expect(result.effects).toEqual([LinkEffect.Redirigir({ url: "https://t.co/f", estado: "cancelado" })])
  })

  it.each(["cobrando", "procesando", "revision", "pagado", "expirado", "cancelado"] as const)(
    "a %s link cannot be cancelled and the refusal carries its estado",
    (estado) => {
      expect(refusal(link({ estado, metodo: "debito" }), LinkEvent.Cancelar())).toMatchObject({
        error: "no_cancelable",
        estado
      })
    }
  )

  it("expires a pendiente link only once expires_at has passed", () => {
    const l = link({ expiresAt: now, failureUrl: "https://t.co/f" })
    const result = Either.getOrThrow(transition(l, LinkEvent.Expirar(), now))
    expect(result.to).toBe("expirado")
    expect(result.effects).toEqual([LinkEffect.Redirigir({ url: "https://t.co/f", estado: "expirado" })])
    expect(Either.isLeft(transition(link(), LinkEvent.Expirar(), now))).toBe(true)
  })

  it("pays at once when the bank confirms, emitting link.pagado once", () => {
    const cobrando = Either.getOrThrow(transition(link(), LinkEvent.IniciarDebito(), now))
    expect(cobrando).toMatchObject({ to: "cobrando", metodo: "debito", effects: [] })
    const paid = Either.getOrThrow(
      transition(
        link({ estado: "cobrando", metodo: "debito" }),
        LinkEvent.BancoConfirma({ referencia: "R1" }),
        now
      )
    )
    expect(paid.to).toBe("pagado")
    expect(paid.effects.filter((e) => e._tag === "Emitir" && e.evento === "link.pagado")).toHaveLength(1)
  })

  it("goes to procesando when the bank accepts without confirming, and pays on confirmation", () => {
    const cobrando = link({ estado: "cobrando", metodo: "debito" })
    expect(to(cobrando, LinkEvent.BancoAcepta())).toEqual(Either.right("procesando"))
    const procesando = link({ estado: "procesando", metodo: "debito", successUrl: "https://t.co/ok" })
    const paid = Either.getOrThrow(transition(procesando, LinkEvent.BancoConfirma({ referencia: "R" }), now))
    expect(paid.to).toBe("pagado")
    expect(paid.effects).toContainEqual(LinkEffect.Redirigir({ url: "https://t.co/ok", estado: "pagado" }))
  })

  it("returns to pendiente with no event when the bank rejects", () => {
    for (const estado of ["cobrando", "procesando"] as const) {
      const result = Either.getOrThrow(
        transition(
          link({ estado, metodo: "debito" }),
          LinkEvent.BancoRechaza({ motivo: "OTP_INVALIDO" }),
          now
        )
      )
      expect(result).toMatchObject({ to: "pendiente", metodo: null, effects: [] })
    }
  })

  it("sends an unanswered payment to revision, which closes by itself on the bank's answer", () => {
    const procesando = link({ estado: "procesando", metodo: "debito" })
    expect(to(procesando, LinkEvent.BancoSinRespuesta())).toEqual(Either.right("revision"))
    const revision = link({ estado: "revision", metodo: "debito" })
    expect(to(revision, LinkEvent.BancoConfirma({ referencia: "R" }))).toEqual(Either.right("pagado"))
    expect(to(revision, LinkEvent.BancoRechaza({ motivo: "X" }))).toEqual(Either.right("pendiente"))
  })

  it("queues immediate settlement with the payment when the merchant has it", () => {
    const l = link({ estado: "cobrando", metodo: "debito", liquidacionInmediata: true })
    const paid = Either.getOrThrow(transition(l, LinkEvent.BancoConfirma({ referencia: "R" }), now))
    expect(paid.effects).toContainEqual(LinkEffect.Liquidar())
  })

  describe("suspension", () => {
    it("a suspended merchant's pendiente link cannot start being paid", () => {
      expect(refusal(link({ comercioSuspendido: true }), LinkEvent.IniciarDebito())).toMatchObject({
        error: "comercio_suspendido"
      })
    })
    it("links already being paid finish normally", () => {
      const l = link({ estado: "procesando", metodo: "debito", comercioSuspendido: true })
      expect(to(l, LinkEvent.BancoConfirma({ referencia: "R" }))).toEqual(Either.right("pagado"))
    })
  })

  it("an expired but not yet swept link cannot start being paid and reads as expirado", () => {
    const l = link({ expiresAt: new Date(now.getTime() - 1) })
    expect(refusal(l, LinkEvent.IniciarDebito())).toMatchObject({ error: "link_expirado" })
    expect(visibleState(l, now)).toBe("expirado")
    expect(visibleState(link(), now)).toBe("pendiente")
  })

  describe("card", () => {
    const card = link({ mode: "live", tarjetaHabilitada: true })
    it("opening the card form holds the link in cobrando, closing it without charge frees it", () => {
      expect(Either.getOrThrow(transition(card, LinkEvent.AbrirTarjeta(), now))).toMatchObject({
        to: "cobrando",
        metodo: "tarjeta"
      })
      const open = { ...card, estado: "cobrando" as const, metodo: "tarjeta" as const }
      expect(to(open, LinkEvent.TarjetaLiberada())).toEqual(Either.right("pendiente"))
      const paid = Either.getOrThrow(
        transition(open, LinkEvent.TarjetaAprobada({ referencia: "C1", recargo: 300 }), now)
      )
      expect(paid.to).toBe("pagado")
      expect(paid.effects[0]).toEqual(
        LinkEffect.Emitir({ evento: "link.pagado", metodo: "tarjeta", referencia: "C1", simulado: false })
      )
    })
    it("no card while a debit is in progress, and no debit while the card form is open", () => {
      const debiting = { ...card, estado: "cobrando" as const, metodo: "debito" as const }
      expect(Either.isLeft(transition(debiting, LinkEvent.AbrirTarjeta(), now))).toBe(true)
      expect(
        Either.isLeft(transition(debiting, LinkEvent.TarjetaAprobada({ referencia: "C", recargo: 0 }), now))
      ).toBe(true)
      const carding = { ...card, estado: "cobrando" as const, metodo: "tarjeta" as const }
      expect(Either.isLeft(transition(carding, LinkEvent.IniciarDebito(), now))).toBe(true)
      expect(Either.isLeft(transition(carding, LinkEvent.BancoConfirma({ referencia: "R" }), now))).toBe(true)
    })
    it("is not offered on test links, links with split or merchants without the pilot", () => {
      for (const l of [
        link({ tarjetaHabilitada: true }),
        { ...card, tieneSplit: true },
        link({ mode: "live" })
      ]) {
        expect(refusal(l, LinkEvent.AbrirTarjeta())).toMatchObject({ error: "tarjeta_no_disponible" })
      }
    })
    it("card payments are settled at the processor's nightly credit, not at once", () => {
      const open = {
        ...card,
        estado: "cobrando" as const,
        metodo: "tarjeta" as const,
        liquidacionInmediata: true
      }
      const paid = Either.getOrThrow(
        transition(open, LinkEvent.TarjetaAprobada({ referencia: "C", recargo: 3 }), now)
      )
      expect(paid.effects.some((e) => e._tag === "Liquidar")).toBe(false)
    })
  })

  it("a live link with a split paid after immediate settlement was turned off still goes to settlement (its split to review)", () => {
    const l = link({
      estado: "procesando",
      mode: "live",
      metodo: "debito",
      liquidacionInmediata: false,
      tieneSplit: true
    })
    const paid = Either.getOrThrow(transition(l, LinkEvent.BancoConfirma({ referencia: "R" }), now))
    expect(paid.effects.some((e) => e._tag === "Liquidar")).toBe(true)
    const plain = Either.getOrThrow(
      transition({ ...l, tieneSplit: false }, LinkEvent.BancoConfirma({ referencia: "R" }), now)
    )
    expect(plain.effects.some((e) => e._tag === "Liquidar")).toBe(false)
  })

  describe("simulate", () => {
    it("pays a test link with reference SIMULADO and a simulated link.acreditado under immediate settlement", () => {
      const paid = Either.getOrThrow(
        transition(link({ liquidacionInmediata: true }), LinkEvent.Simular({ resultado: "pagado" }), now)
      )
      expect(paid.to).toBe("pagado")
      expect(paid.effects).toEqual([
        LinkEffect.Emitir({ evento: "link.pagado", metodo: null, referencia: "SIMULADO", simulado: true }),
        LinkEffect.Emitir({ evento: "link.acreditado", metodo: null, referencia: "SIMULADO", simulado: true })
      ])
    })
    it("refuses to simulate a payment of a suspended merchant's link with comercio_suspendido", () => {
      expect(
        refusal(link({ comercioSuspendido: true }), LinkEvent.Simular({ resultado: "pagado" }))
      ).toMatchObject({ error: "comercio_suspendido" })
      expect(to(link({ comercioSuspendido: true }), LinkEvent.Simular({ resultado: "expirado" }))).toEqual(
        Either.right("expirado")
      )
    })
    it("rechazado changes nothing and expirado expires at once", () => {
      expect(to(link(), LinkEvent.Simular({ resultado: "rechazado" }))).toEqual(Either.right("pendiente"))
      expect(to(link(), LinkEvent.Simular({ resultado: "expirado" }))).toEqual(Either.right("expirado"))
    })
    it("refuses live links with solo_modo_prueba and non-pendiente links with no_simulable", () => {
      expect(refusal(link({ mode: "live" }), LinkEvent.Simular({ resultado: "pagado" }))).toMatchObject({
        error: "solo_modo_prueba"
      })
      expect(refusal(link({ estado: "pagado" }), LinkEvent.Simular({ resultado: "pagado" }))).toMatchObject({
        error: "no_simulable",
        estado: "pagado"
      })
    })
  })

  const events: ReadonlyArray<LinkEvent> = [
    LinkEvent.Cancelar(),
    LinkEvent.Expirar(),
    LinkEvent.IniciarDebito(),
    LinkEvent.BancoConfirma({ referencia: "R" }),
    LinkEvent.BancoAcepta(),
    LinkEvent.BancoRechaza({ motivo: "X" }),
    LinkEvent.BancoSinRespuesta(),
    LinkEvent.AbrirTarjeta(),
    LinkEvent.TarjetaAprobada({ referencia: "C", recargo: 1 }),
    LinkEvent.TarjetaLiberada(),
    LinkEvent.Simular({ resultado: "pagado" }),
    LinkEvent.Simular({ resultado: "rechazado" }),
    LinkEvent.Simular({ resultado: "expirado" })
  ]
  const snapshots = fc.record({
    estado: fc.constantFrom(...LinkStates),
    mode: fc.constantFrom("test" as const, "live" as const),
    expiresAt: fc.option(
      fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })
    ),
    metodo: fc.constantFrom(null, "debito" as const, "tarjeta" as const),
    failureUrl: fc.constantFrom(null, "https://t.co/f"),
    successUrl: fc.constantFrom(null, "https://t.co/s"),
    comercioSuspendido: fc.boolean(),
    liquidacionInmediata: fc.boolean(),
    tarjetaHabilitada: fc.boolean(),
    tieneSplit: fc.boolean()
  })
  const instants = fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })

  it.prop(
    "a final state accepts no transition",
    [snapshots, fc.constantFrom(...FinalStates), fc.constantFrom(...events), instants],
    ([snapshot, estado, event, at]) => {
      expect(Either.isLeft(transition({ ...snapshot, estado }, event, at))).toBe(true)
    }
  )

  it.prop(
    "link.pagado is emitted only on entering pagado, and at most once per transition",
    [snapshots, fc.constantFrom(...events), instants],
    ([snapshot, event, at]) => {
      Either.match(transition(snapshot, event, at), {
        onLeft: () => undefined,
        onRight: (t) => {
          const notices = t.effects.filter((e) => e._tag === "Emitir" && e.evento === "link.pagado")
          expect(notices.length).toBe(t.to === "pagado" && t.from !== "pagado" ? 1 : 0)
        }
      })
    }
  )
})

describe("Moves", () => {
  it("are exactly the moves the machine makes", () => {
    expect([...Moves].sort()).toEqual(
      [
        "pendiente>cancelado",
        "pendiente>expirado",
        "pendiente>pagado",
        "pendiente>pendiente",
        "pendiente>cobrando",
        "cobrando>procesando",
        "cobrando>revision",
        "cobrando>pagado",
        "cobrando>pendiente",
        "procesando>revision",
        "procesando>pagado",
        "procesando>pendiente",
        "revision>pagado",
        "revision>pendiente"
      ].sort()
    )
    expect(canMove("cobrando", "procesando")).toBe(true)
    expect(canMove("pagado", "pendiente")).toBe(false)
    expect(canMove("revision", "procesando")).toBe(false)
    for (const state of FinalStates) for (const to of LinkStates) expect(canMove(state, to)).toBe(false)
  })
})
