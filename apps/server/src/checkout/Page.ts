/**
 * The payment page's HTML: one server-rendered screen per link state (form, processing,
 * receipt, expired, cancelled), Spanish, labelled fields in reading order. Everything needed to
 * pay comes in this one answer (issue 46: a slow phone waits a round trip per request): the
 * stylesheet inline in the head, the script inline at the end of the body, each allowed by its
 * hash in the Content-Security-Policy (CheckoutRoutes.ts), never by 'unsafe-inline'; system fonts.
 * Data the script needs rides in `data-` attributes of `#app`; none of it is payer data.
 */
import { BankCalendar, Fees, LinkMachine, Money, Resultado, Venezuela } from "@switch/core"
import { Option } from "effect"
import type { PageModel } from "./Model.js"
import { cardHolding, cardOption } from "./TarjetaPage.js"

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

/** `url` with `estado` (and `referencia`) added to its query, as the merchant receives them. */
export const returnUrl = (url: string, estado: string, referencia?: string) => {
  const target = new URL(url)
  target.searchParams.set("estado", estado)
  if (referencia !== undefined) target.searchParams.set("referencia", referencia)
  return target.toString()
}

/** The page's script and stylesheet, as inlined (their hashes are in the page's CSP). */
export interface Assets {
  readonly js: string
  readonly css: string
}

const attrs = (data: Record<string, string | number | undefined>) =>
  Object.entries(data)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => ` data-${k}="${esc(String(v))}"`)
    .join("")

const countdown = (label: string, url: string) => `
  <p aria-live="polite">Volverás a ${esc(label)} en <span id="seg">3</span> segundos.</p>
  <a class="boton primario" id="volver-ya" href="${esc(url)}">Volver ahora</a>`

const form = (m: PageModel) => {
  const { link, merchant } = m
  const empresa = merchant.tipo === "empresa"
  const tipMax = Fees.tipCap({
    charge: Money.Cents(link.monto),
    maxPct: merchant.propina_max_bp === null ? null : Money.BasisPoints(merchant.propina_max_bp)
  })
  const last = Option.getOrNull(m.last)
  const rejected =
    last !== null &&
    last.estado === "RECHAZADA" &&
    last.motivo_rechazo !== null &&
    m.at.getTime() - last.created_at.getTime() < 15 * 60_000
      ? Resultado.motivoParaPagador[last.motivo_rechazo]
      : null
  const live = link.mode === "live"
  const cierre =
    live && m.cierre._tag === "Cerrado"
      ? `<p class="aviso" role="status">${esc(BankCalendar.MOTIVO_CIERRE)}</p>`
      : live && m.cierre._tag === "Aviso"
        ? `<p class="aviso" role="status">${esc(BankCalendar.avisoCierre(m.cierre.cierraEn))}</p>`
        : ""
  const banks = Venezuela.banks
    .map((b) => `<option value="${b.codigo}">${esc(b.nombre)} (${b.codigo})</option>`)
    .join("")
  const docs = Venezuela.tiposDoc.map((t) => `<option value="${t}">${t}</option>`).join("")
  return `${cierre}
<form id="pago" novalidate>
  <div id="error" class="alerta" role="alert" tabindex="-1"${rejected === null ? " hidden" : ""}>${
    rejected === null ? "" : `${esc(rejected)} Puedes intentarlo de nuevo con un código nuevo.`
  }</div>
  <label for="banco">Tu banco</label>
  <select id="banco" name="banco" required><option value="">Elige tu banco</option>${banks}</select>
  <fieldset>
    <legend>Cédula o RIF registrado en tu banco</legend>
    <div class="doc">
      <label class="sr" for="tipo_doc">Tipo de documento</label>
      <select id="tipo_doc" name="tipo_doc">${docs}</select>
      <label class="sr" for="identificacion">Número de documento</label>
      <input id="identificacion" name="identificacion" inputmode="numeric" autocomplete="off" required maxlength="15">
    </div>
  </fieldset>
  <label for="telefono">Teléfono registrado en tu banco</label>
  <input id="telefono" name="telefono" type="tel" inputmode="tel" autocomplete="tel-national" placeholder="0414 1234567" required maxlength="16">
  <button type="button" id="pedir" class="secundario">Pedir código de pago</button>
  <p id="info" class="ayuda" role="status"></p>
  <label for="otp">Código de 8 dígitos de tu banco</label>
  <input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{8}" maxlength="8" required>
  ${
    tipMax > 0
      ? `<label for="propina">Propina (opcional, hasta ${esc(Money.format(tipMax))})</label>
  <input id="propina" name="propina" inputmode="decimal" placeholder="0,00" maxlength="12">`
      : ""
  }
  <label for="nombre">Tu nombre ${empresa ? "(obligatorio si te registras como cliente)" : "(opcional)"}</label>
  <input id="nombre" name="nombre" autocomplete="name" maxlength="40">
  <div class="check">
    <input type="checkbox" id="alta_cliente" name="alta_cliente">
    <label for="alta_cliente">${
      empresa
        ? `Quiero ser cliente de ${esc(merchant.nombre)} y recibir sus novedades`
        : "Guardar mis datos para pagar más rápido"
    }</label>
  </div>
  <button type="button" id="olvidar" class="enlace" hidden>Olvidar mis datos</button>
  <button type="submit" id="pagar" class="primario">Pagar ${esc(Money.format(Money.Cents(link.monto)))}</button>
  ${
    link.failure_url === null
      ? ""
      : `<button type="button" id="volver" class="secundario"${rejected === null ? " hidden" : ""}>Cancelar y volver al comercio</button>`
  }
</form>`
}

/** `total`: what the bank is asked to debit, the amount plus the tip (the script sets it when the payer submits). */
const processing = (hidden: boolean, total: number) => `
<section id="procesando" aria-live="polite"${hidden ? " hidden" : ""}>
  <h2 id="procesando-titulo" tabindex="-1">Procesando tu pago…</h2>
  <p>Total a debitar: <strong id="procesando-total">${esc(Money.format(Money.Cents(total)))}</strong></p>
  <p>Tu banco está confirmando el pago. No cierres esta página ni pagues otra vez.</p>
  <p id="lento" class="aviso" hidden>El banco está tardando más de lo normal. Tu pago sigue en proceso y no hace falta pagar de nuevo: esta página se actualizará sola cuando el banco responda.</p>
</section>`

const receipt = (m: PageModel) => {
  const { link } = m
  const referencia = link.referencia_banco ?? ""
  const codigo = link.codigo_verificacion ?? ""
  const paidAt = link.paid_at ?? m.at
  const propina =
    link.propina > 0 ? `<dt>Propina</dt><dd>${esc(Money.format(Money.Cents(link.propina)))}</dd>` : ""
  // Paid by card: the card was billed the surcharge on top.
  const recargo = m.recargoPagado ?? 0
  const extra =
    m.recargoPagado === undefined
      ? propina
      : `${propina}<dt>Recargo por tarjeta</dt><dd id="recibo-recargo">${esc(Money.format(Money.Cents(recargo)))}</dd>`
  const pagado = Money.add(
    Fees.total(Money.Cents(link.monto), Money.Cents(link.propina)),
    Money.Cents(recargo)
  )
  return `
<section id="recibo">
  <h2 class="ok">Pago exitoso</h2>
  <dl>
    <dt>${m.recargoPagado === undefined ? "Total debitado" : "Total pagado con tarjeta"}</dt><dd id="recibo-monto">${esc(Money.format(pagado))}</dd>${extra}
    <dt>Referencia</dt><dd id="recibo-referencia">${esc(referencia)}</dd>
    <dt>Comprobante</dt><dd><a id="recibo-codigo" href="/switch/v1/verificar/${esc(codigo)}">${esc(codigo)}</a></dd>
    <dt>Fecha</dt><dd>${esc(BankCalendar.formatCaracas(paidAt))}</dd>
  </dl>
  <p class="ayuda">Guarda el código de comprobante: cualquiera puede verificarlo con el enlace.</p>
  ${link.success_url === null ? "" : countdown("la tienda", returnUrl(link.success_url, "pagado", referencia))}
</section>`
}

const closed = (m: PageModel, estado: "expirado" | "cancelado") => `
<section id="cerrado">
  <h2>${estado === "expirado" ? "Este link de pago expiró" : "Este link de pago fue cancelado"}</h2>
  <p>Ya no admite pagos. Si aún debes pagar, pide un link nuevo al comercio.</p>
  ${m.link.failure_url === null ? "" : countdown("la tienda", returnUrl(m.link.failure_url, estado))}
</section>`

/** The whole page for a link in its current state. */
export const renderPage = (m: PageModel, csrf: string, assets: Assets) => {
  const { link, merchant, estado } = m
  const inFlight = LinkMachine.isInFlight(estado)
  // The card pilot's form holds the link: its own screen, with "pay another way".
  const card = inFlight && link.metodo === "tarjeta"
  const last = Option.getOrNull(m.last)
  // From the first submission on, the link holds the tip: the bank debits the amount plus it.
  const debited = Fees.total(Money.Cents(link.monto), Money.Cents(link.propina))
  let body: string
  let redirect: string | undefined
  switch (estado) {
    case "pagado":
      body = receipt(m)
      if (link.success_url !== null)
        redirect = returnUrl(link.success_url, "pagado", link.referencia_banco ?? "")
      break
    case "expirado":
    case "cancelado":
      body = closed(m, estado)
      if (link.failure_url !== null) redirect = returnUrl(link.failure_url, estado)
      break
    default:
      body = inFlight
        ? card
          ? cardHolding()
          : processing(false, debited)
        : `${cardOption(m.tarjeta, link.monto, merchant.recargo_tarjeta_bp)}${form(m)}${processing(true, debited)}`
  }
  const data = attrs({
    link: link.id,
    estado: card ? "tarjeta" : inFlight ? "procesando" : estado,
    tipo: merchant.tipo,
    monto: link.monto,
    redirect,
    rechazado: link.failure_url === null ? undefined : returnUrl(link.failure_url, "rechazado"),
    transcurrido:
      inFlight && last !== null ? Math.max(0, m.at.getTime() - last.created_at.getTime()) : undefined,
    refrescar: estado === "pendiente" && link.mode === "live" && m.cierre._tag !== "Abierto" ? 30 : undefined
  })
  // A test link's closed pages (expired, cancelled, paid) take no payment: nothing to explain.
  const open = estado !== "pagado" && estado !== "expirado" && estado !== "cancelado"
  const banner =
    link.mode === "test" && open
      ? `<p class="prueba" role="note"><strong>Modo de prueba:</strong> no se mueve dinero real. Usa el código 12345678 para aprobar; 11111111 rechaza y 33333333 tarda unos segundos.</p>`
      : ""
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="csrf" content="${esc(csrf)}">
<meta name="robots" content="noindex">
<title>Pagar a ${esc(merchant.nombre)}</title>
<style>${assets.css}</style>
</head>
<body>
<main id="app"${data}>
${banner}
<header>
  <p class="comercio">${esc(merchant.nombre)}</p>
  <h1>${esc(link.concepto ?? "Pago")}</h1>
  <p class="monto" aria-label="Monto a pagar">${esc(Money.format(Money.Cents(inFlight || estado === "pagado" ? debited : link.monto)))}</p>
</header>
${body}
</main>
<script>${assets.js}</script>
</body>
</html>`
}

/** A page for a link that does not exist. */
export const notFoundPage = (assets: Assets) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Link no encontrado</title><style>${assets.css}</style></head>
<body><main><h1>Link de pago no encontrado</h1><p>Revisa el enlace que te enviaron o pide uno nuevo al comercio.</p></main></body></html>`
