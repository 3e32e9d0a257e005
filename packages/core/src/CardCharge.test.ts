import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import {
  CardChargeEffect,
  CardChargeEvent,
  type CardChargeSnapshot,
  CardChargeStates,
  eventOf,
  FinalCardStates,
  FORM_DURATION_MS,
  formExpiresAt,
  forTakenLink,
  isOverdue,
  transition
} from "./CardCharge.js"

const opened = new Date("2026-11-20T12:00:00Z")
const open: CardChargeSnapshot = { estado: "abierto", referencia: null, expiresAt: formExpiresAt(opened) }

/** Applies events in order, keeping every accepted transition's effects. */
const run = (events: ReadonlyArray<CardChargeEvent>, start: CardChargeSnapshot = open) => {
  let charge = start
  const effects: Array<CardChargeEffect> = []
  for (const event of events) {
    const t = transition(charge, event)
    if (Either.isRight(t)) {
      charge = { ...charge, estado: t.right.to, referencia: t.right.referencia }
      effects.push(...t.right.effects)
    }
  }
  return { charge, effects }
}

const count = (effects: ReadonlyArray<CardChargeEffect>, tag: CardChargeEffect["_tag"]) =>
  effects.filter((e) => e._tag === tag).length

// The processor keeps one reference per charge; operators type the one they see.
const event: fc.Arbitrary<CardChargeEvent> = fc.oneof(
  fc.constant(CardChargeEvent.Aprobada({ referencia: "TJ-1" })),
  fc.constant(CardChargeEvent.SinCobro()),
  fc.constant(CardChargeEvent.Acreditada({ referencia: "TJ-1" })),
  fc.constant(CardChargeEvent.FaltaEnCierre()),
  fc.constant(CardChargeEvent.MarcarAcreditada({ referencia: "TJ-1" })),
  fc.constant(CardChargeEvent.CerrarConNota({ nota: "sin crédito" })),
  fc.constant(CardChargeEvent.Duplicada({ referencia: "TJ-1" }))
)
const history = fc.array(event, { maxLength: 12 })

describe("card charge", () => {
  it("the form lasts 6 minutes and is overdue only while still open", () => {
    expect(FORM_DURATION_MS).toBe(360_000)
    expect(isOverdue(open, new Date(opened.getTime() + FORM_DURATION_MS - 1))).toBe(false)
    expect(isOverdue(open, new Date(opened.getTime() + FORM_DURATION_MS))).toBe(true)
    expect(isOverdue({ ...open, estado: "sin_cobro" }, new Date(opened.getTime() + FORM_DURATION_MS))).toBe(
      false
    )
  })

  it("an approval pays the link with the card receipt reference; a decline releases it", () => {
    expect(run([CardChargeEvent.Aprobada({ referencia: "TJ-9" })]).effects).toEqual([
      CardChargeEffect.PagarLink({ referencia: "TJ-9" })
    ])
    expect(run([CardChargeEvent.SinCobro()]).effects).toEqual([CardChargeEffect.LiberarLink()])
  })

  it("the nightly credit settles the merchant; a charge missing from the close goes to review", () => {
    const paid = [CardChargeEvent.Aprobada({ referencia: "TJ-1" })]
    expect(run([...paid, CardChargeEvent.Acreditada({ referencia: "TJ-1" })]).effects).toEqual([
      CardChargeEffect.PagarLink({ referencia: "TJ-1" }),
      CardChargeEffect.Liquidar({ referencia: "TJ-1" })
    ])
    const missing = run([...paid, CardChargeEvent.FaltaEnCierre()])
    expect(missing.charge.estado).toBe("faltante")
    expect(missing.effects.at(-1)).toEqual(CardChargeEffect.AbrirRevision())
    const closed = run([CardChargeEvent.CerrarConNota({ nota: "n" })], missing.charge)
    expect(closed.charge.estado).toBe("cerrado")
    expect(closed.effects).toEqual([CardChargeEffect.CerrarRevision()])
  })

  it("a repeated fact is refused as Repetido, a contradicting one as NoAplica", () => {
    const approved = run([CardChargeEvent.Aprobada({ referencia: "TJ-1" })]).charge
    expect(
      Either.getLeft(transition(approved, CardChargeEvent.Aprobada({ referencia: "TJ-1" })))
    ).toMatchObject({
      _tag: "Some",
      value: { _tag: "Repetido" }
    })
    expect(
      Either.getLeft(transition(approved, CardChargeEvent.Aprobada({ referencia: "TJ-2" })))
    ).toMatchObject({
      _tag: "Some",
      value: { _tag: "NoAplica" }
    })
    expect(Either.getLeft(transition(approved, CardChargeEvent.SinCobro()))).toMatchObject({
      _tag: "Some",
      value: { _tag: "NoAplica" }
    })
  })

  it("reads the processor's answer: no answer and in course state nothing", () => {
    expect(eventOf({ _tag: "Cobrado", referencia: "R" })).toEqual(
      CardChargeEvent.Aprobada({ referencia: "R" })
    )
    expect(eventOf({ _tag: "NoCobrado" })).toEqual(CardChargeEvent.SinCobro())
    expect(eventOf({ _tag: "EnCurso" })).toBeNull()
    expect(eventOf({ _tag: "SinRespuesta" })).toBeNull()
  })

  it.prop(
    "in any history the link is paid at most once and the merchant settled at most once",
    [history],
    ([events]) => {
      const { effects } = run(events)
      expect(count(effects, "PagarLink")).toBeLessThanOrEqual(1)
      expect(count(effects, "Liquidar")).toBeLessThanOrEqual(1)
    }
  )

  it.prop("every fact received twice in a row changes nothing the second time", [history], ([events]) => {
    const once = run(events)
    const twice = run(events.flatMap((e) => [e, e]))
    expect(twice.charge).toEqual(once.charge)
    expect(twice.effects).toEqual(once.effects)
  })

  it.prop("a settlement always follows or comes with paying the link", [history], ([events]) => {
    const { effects } = run(events)
    const pay = effects.findIndex((e) => e._tag === "PagarLink")
    const settle = effects.findIndex((e) => e._tag === "Liquidar")
    if (settle >= 0) expect(pay).toBeGreaterThanOrEqual(0)
    if (settle >= 0) expect(pay).toBeLessThan(settle)
  })

  it.prop("once the processor approved, no later fact releases the link", [history], ([events]) => {
    const { effects } = run([CardChargeEvent.Aprobada({ referencia: "TJ-1" }), ...events])
    expect(count(effects, "LiberarLink")).toBe(0)
  })

  it.prop("review is opened and closed in pairs, never closed when not opened", [history], ([events]) => {
    let depth = 0
    for (const effect of run(events).effects) {
      if (effect._tag === "AbrirRevision") depth++
      if (effect._tag === "CerrarRevision") depth--
      expect(depth === 0 || depth === 1).toBe(true)
    }
  })

  it.prop("final states accept no event", [fc.constantFrom(...FinalCardStates), event], ([estado, e]) => {
    expect(Either.isLeft(transition({ ...open, estado, referencia: "TJ-1" }, e))).toBe(true)
  })

  it("an approval whose link was paid another way goes to review; its credit never settles; an operator closes it", () => {
    const approved = CardChargeEvent.Aprobada({ referencia: "TJ-9" })
    expect(forTakenLink(approved)).toEqual(CardChargeEvent.Duplicada({ referencia: "TJ-9" }))
    expect(forTakenLink(CardChargeEvent.SinCobro())).toEqual(CardChargeEvent.SinCobro())
    const { charge, effects } = run([
      CardChargeEvent.SinCobro(),
      forTakenLink(approved),
      approved,
      CardChargeEvent.Acreditada({ referencia: "TJ-9" }),
      CardChargeEvent.FaltaEnCierre(),
      CardChargeEvent.MarcarAcreditada({ referencia: "TJ-9" })
    ])
    expect(charge.estado).toBe("duplicado")
    expect(effects.map((e) => e._tag)).toEqual(["LiberarLink", "AbrirRevision"])
    const closed = transition(charge, CardChargeEvent.CerrarConNota({ nota: "reembolsado en el procesador" }))
    expect(Either.getOrThrow(closed).to).toBe("cerrado")
    expect(Either.getOrThrow(closed).effects).toEqual([CardChargeEffect.CerrarRevision()])
  })

  it.prop("a charge whose link was taken never pays it nor settles the merchant", [history], ([events]) => {
    const { effects } = run([CardChargeEvent.Duplicada({ referencia: "TJ-1" }), ...events])
    expect(count(effects, "PagarLink")).toBe(0)
    expect(count(effects, "Liquidar")).toBe(0)
  })

  it("every state is reachable from an open form", () => {
    const reached = new Set<string>(["abierto"])
    const frontier: Array<CardChargeSnapshot> = [open]
    const all = [
      CardChargeEvent.Aprobada({ referencia: "TJ-1" }),
      CardChargeEvent.SinCobro(),
      CardChargeEvent.Acreditada({ referencia: "TJ-1" }),
      CardChargeEvent.FaltaEnCierre(),
      CardChargeEvent.MarcarAcreditada({ referencia: "TJ-1" }),
      CardChargeEvent.CerrarConNota({ nota: "n" }),
      CardChargeEvent.Duplicada({ referencia: "TJ-1" })
    ]
    while (frontier.length > 0) {
      const charge = frontier.pop() as CardChargeSnapshot
      for (const e of all) {
        const t = transition(charge, e)
        if (Either.isRight(t) && !reached.has(t.right.to)) {
          reached.add(t.right.to)
          frontier.push({ ...charge, estado: t.right.to, referencia: t.right.referencia })
        }
      }
    }
    expect([...reached].sort()).toEqual([...CardChargeStates].sort())
  })
})
