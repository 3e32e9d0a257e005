/**
 * The payment link state machine of SPEC ("Payment link states"). `transition` is pure: it
 * takes the link as stored, an event and the time, and returns the next state with the
 * effects the server must carry out in the same transaction, or a typed refusal.
 *
 * Storage makes it atomic: the server applies a transition with a conditional update
 * (`... WHERE estado = <from>`), so two racing events cannot both win.
 */
import { Data, Either } from "effect"

export const LinkStates = [
  "pendiente",
  "cobrando",
  "procesando",
  "revision",
  "pagado",
  "expirado",
  "cancelado"
] as const
export type LinkState = (typeof LinkStates)[number]

export const FinalStates: ReadonlyArray<LinkState> = ["pagado", "expirado", "cancelado"]
export const isFinal = (estado: LinkState): boolean => FinalStates.includes(estado)

/**
 * A payment is under way: a debit or the card form holds the link until the bank or the
 * processor answers, and its amount with tip counts against the merchant's receive caps.
 */
export const InFlightStates: ReadonlyArray<LinkState> = ["cobrando", "procesando", "revision"]
export const isInFlight = (estado: LinkState): boolean => InFlightStates.includes(estado)

export type Mode = "test" | "live"

/** How the payer is paying while the link is `cobrando`. */
export type Metodo = "debito" | "tarjeta"

/** What the machine needs to know about a link and its merchant. */
export interface LinkSnapshot {
  readonly estado: LinkState
  readonly mode: Mode
  readonly expiresAt: Date | null
  /** Set while `cobrando` or `procesando`: which payment method holds the link. */
  readonly metodo: Metodo | null
  readonly failureUrl: string | null
  readonly successUrl: string | null
  readonly comercioSuspendido: boolean
  readonly liquidacionInmediata: boolean
  readonly tarjetaHabilitada: boolean
  readonly tieneSplit: boolean
}

/** What happens to a link. Bank and card outcomes arrive as events; the server has asked. */
export type LinkEvent = Data.TaggedEnum<{
  /** `POST /links/{id}/cancelar` or a batch cancel. */
  Cancelar: {}
  /** The expiry job, or a read that notices `expires_at` has passed. */
  Expirar: {}
  /** The payer submitted the bank code; the debit is about to be sent. */
  IniciarDebito: {}
  /** The bank answered the debit. */
  BancoConfirma: { readonly referencia: string }
  BancoAcepta: {}
  BancoRechaza: { readonly motivo: string }
  /** No answer from the bank within its window: a person or the reconciliation job decides. */
  BancoSinRespuesta: {}
  /** The payer opened the external card form. */
  AbrirTarjeta: {}
  TarjetaAprobada: { readonly referencia: string; readonly recargo: number }
  /** Declined, form expired (6 minutes), or the payer chose another way and nothing was charged. */
  TarjetaLiberada: {}
  /** `POST /links/{id}/simular` on a test link. */
  Simular: { readonly resultado: "pagado" | "rechazado" | "expirado" }
}>
export const LinkEvent = Data.taggedEnum<LinkEvent>()

/** Something the server must do in the transaction that stores the new state. */
export type LinkEffect = Data.TaggedEnum<{
  /** Write an outbox event (`link.pagado`, `link.acreditado`). */
  Emitir: {
    readonly evento: "link.pagado" | "link.acreditado"
    readonly metodo: Metodo | null
    readonly referencia: string | null
    readonly simulado: boolean
  }
  /** Queue the immediate settlement of the net (it emits `link.acreditado` when done). */
  Liquidar: {}
  /** Where the payer's browser goes next. */
  Redirigir: { readonly url: string; readonly estado: "pagado" | "expirado" | "cancelado" | "rechazado" }
}>
export const LinkEffect = Data.taggedEnum<LinkEffect>()

/** Why the machine refuses; the first three are SPEC error codes. */
export type Refusal = Data.TaggedEnum<{
  NoCancelable: { readonly error: "no_cancelable"; readonly estado: LinkState }
  NoSimulable: { readonly error: "no_simulable"; readonly estado: LinkState }
  SoloModoPrueba: { readonly error: "solo_modo_prueba" }
  ComercioSuspendido: { readonly error: "comercio_suspendido" }
  LinkExpirado: { readonly error: "link_expirado" }
  TarjetaNoDisponible: { readonly error: "tarjeta_no_disponible" }
  /** The event does not apply in this state (a stale or duplicate bank answer, say). */
  NoAplica: {
    readonly error: "transicion_invalida"
    readonly estado: LinkState
    readonly evento: LinkEvent["_tag"]
  }
}>
export const Refusal = Data.taggedEnum<Refusal>()

/** An accepted event: the state to store and what to do with it. */
export interface Transition {
  readonly from: LinkState
  readonly to: LinkState
  readonly metodo: Metodo | null
  readonly effects: ReadonlyArray<LinkEffect>
}

const move = (
  link: LinkSnapshot,
  to: LinkState,
  metodo: Metodo | null,
  effects: ReadonlyArray<LinkEffect> = []
): Either.Either<Transition, Refusal> => Either.right({ from: link.estado, to, metodo, effects })

const refuseEvent = (link: LinkSnapshot, event: LinkEvent) =>
  Either.left(Refusal.NoAplica({ error: "transicion_invalida", estado: link.estado, evento: event._tag }))

const hasExpired = (link: LinkSnapshot, now: Date): boolean =>
  link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()

const failureRedirect = (link: LinkSnapshot, estado: "expirado" | "cancelado"): ReadonlyArray<LinkEffect> =>
  link.failureUrl === null ? [] : [LinkEffect.Redirigir({ url: link.failureUrl, estado })]

/** Effects of reaching `pagado`: the notice once, the settlement, the payer's return. */
const paidEffects = (
  link: LinkSnapshot,
  metodo: Metodo | null,
  referencia: string,
  simulado: boolean
): ReadonlyArray<LinkEffect> => {
  const effects: Array<LinkEffect> = [
    LinkEffect.Emitir({ evento: "link.pagado", metodo, referencia, simulado })
  ]
  // Card payments are settled when the processor's nightly credit arrives, not now. A split is
  // shared out (or, with immediate settlement since turned off, put in review) whatever the
  // merchant's setting is now: its beneficiaries are never left unpaid without a person knowing.
  if ((link.liquidacionInmediata || link.tieneSplit) && metodo !== "tarjeta") {
    effects.push(
      simulado
        ? LinkEffect.Emitir({ evento: "link.acreditado", metodo, referencia, simulado })
        : LinkEffect.Liquidar()
    )
  }
  if (link.successUrl !== null) effects.push(LinkEffect.Redirigir({ url: link.successUrl, estado: "pagado" }))
  return effects
}

/** May a payer start paying this `pendiente` link now? */
const canStartPaying = (link: LinkSnapshot, now: Date): Either.Either<void, Refusal> => {
  if (link.comercioSuspendido)
    return Either.left(Refusal.ComercioSuspendido({ error: "comercio_suspendido" }))
  if (hasExpired(link, now)) return Either.left(Refusal.LinkExpirado({ error: "link_expirado" }))
  return Either.void
}

/** Applies `event` to `link` at `now`. Final states accept nothing. */
export const transition = (
  link: LinkSnapshot,
  event: LinkEvent,
  now: Date
): Either.Either<Transition, Refusal> => {
  const { estado } = link
  switch (event._tag) {
    case "Cancelar":
      return estado === "pendiente"
        ? move(link, "cancelado", null, failureRedirect(link, "cancelado"))
        : Either.left(Refusal.NoCancelable({ error: "no_cancelable", estado }))

    case "Expirar":
      return estado === "pendiente" && hasExpired(link, now)
        ? move(link, "expirado", null, failureRedirect(link, "expirado"))
        : refuseEvent(link, event)

    case "Simular": {
      if (link.mode !== "test") return Either.left(Refusal.SoloModoPrueba({ error: "solo_modo_prueba" }))
      if (estado !== "pendiente") return Either.left(Refusal.NoSimulable({ error: "no_simulable", estado }))
      switch (event.resultado) {
        case "pagado":
          // A suspended merchant's open links cannot start being paid, simulated or not.
          if (link.comercioSuspendido)
            return Either.left(Refusal.ComercioSuspendido({ error: "comercio_suspendido" }))
          return move(link, "pagado", null, paidEffects(link, null, "SIMULADO", true))
        case "rechazado":
          return move(link, "pendiente", null)
        case "expirado":
          return move(link, "expirado", null, failureRedirect(link, "expirado"))
      }
      break
    }

    case "IniciarDebito":
      if (estado !== "pendiente") return refuseEvent(link, event)
      return Either.flatMap(canStartPaying(link, now), () => move(link, "cobrando", "debito"))

    case "BancoConfirma":
      return (estado === "cobrando" || estado === "procesando" || estado === "revision") &&
        link.metodo === "debito"
        ? move(link, "pagado", "debito", paidEffects(link, "debito", event.referencia, false))
        : refuseEvent(link, event)

    case "BancoAcepta":
      return estado === "cobrando" && link.metodo === "debito"
        ? move(link, "procesando", "debito")
        : refuseEvent(link, event)

    case "BancoRechaza":
      // Back to open so the payer may retry with a new code; no event is sent.
      return (estado === "cobrando" || estado === "procesando" || estado === "revision") &&
        link.metodo === "debito"
        ? move(link, "pendiente", null)
        : refuseEvent(link, event)

    case "BancoSinRespuesta":
      return (estado === "cobrando" || estado === "procesando") && link.metodo === "debito"
        ? move(link, "revision", "debito")
        : refuseEvent(link, event)

    case "AbrirTarjeta":
      if (estado !== "pendiente") return refuseEvent(link, event)
      if (!link.tarjetaHabilitada || link.mode !== "live" || link.tieneSplit) {
        return Either.left(Refusal.TarjetaNoDisponible({ error: "tarjeta_no_disponible" }))
      }
      return Either.flatMap(canStartPaying(link, now), () => move(link, "cobrando", "tarjeta"))

    case "TarjetaAprobada":
      return estado === "cobrando" && link.metodo === "tarjeta"
        ? move(link, "pagado", "tarjeta", paidEffects(link, "tarjeta", event.referencia, false))
        : refuseEvent(link, event)

    case "TarjetaLiberada":
      return estado === "cobrando" && link.metodo === "tarjeta"
        ? move(link, "pendiente", null)
        : refuseEvent(link, event)
  }
}

/** Which state a payer's page should show: an open link past its expiry reads as expired. */
export const visibleState = (link: Pick<LinkSnapshot, "estado" | "expiresAt">, now: Date): LinkState =>
  link.estado === "pendiente" && link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()
    ? "expirado"
    : link.estado

/**
 * Every move (`from` → `to`) {@link transition} can answer, found by running it over every
 * state, event and kind of link, so it can never disagree with the machine. A writer of link
 * states checks a transition against it before its conditional update (`where estado = from`).
 */
export const Moves: ReadonlySet<`${LinkState}>${LinkState}`> = (() => {
  const moves = new Set<`${LinkState}>${LinkState}`>()
  const now = new Date(0)
  const events: ReadonlyArray<LinkEvent> = [
    LinkEvent.Cancelar(),
    LinkEvent.Expirar(),
    LinkEvent.IniciarDebito(),
    LinkEvent.BancoConfirma({ referencia: "r" }),
    LinkEvent.BancoAcepta(),
    LinkEvent.BancoRechaza({ motivo: "m" }),
    LinkEvent.BancoSinRespuesta(),
    LinkEvent.AbrirTarjeta(),
    LinkEvent.TarjetaAprobada({ referencia: "r", recargo: 0 }),
    LinkEvent.TarjetaLiberada(),
    LinkEvent.Simular({ resultado: "pagado" }),
    LinkEvent.Simular({ resultado: "rechazado" }),
    LinkEvent.Simular({ resultado: "expirado" })
  ]
  const flags = [true, false]
  for (const estado of LinkStates)
    for (const mode of ["test", "live"] as const)
      for (const metodo of [null, "debito", "tarjeta"] as const)
        for (const expired of flags)
          for (const comercioSuspendido of flags)
            for (const tarjetaHabilitada of flags)
              for (const tieneSplit of flags)
                for (const event of events) {
                  const link: LinkSnapshot = {
                    estado,
                    mode,
                    metodo,
                    expiresAt: expired ? new Date(-1) : null,
                    failureUrl: null,
                    successUrl: null,
                    comercioSuspendido,
                    liquidacionInmediata: true,
                    tarjetaHabilitada,
                    tieneSplit
                  }
                  const t = transition(link, event, now)
                  if (Either.isRight(t)) moves.add(`${t.right.from}>${t.right.to}`)
                }
  return moves
})()

/** Whether the machine ever moves a link from `from` to `to`. */
export const canMove = (from: LinkState, to: LinkState): boolean => Moves.has(`${from}>${to}`)
