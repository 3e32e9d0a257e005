/**
 * The card pilot's parts of the payment page: the card option with its surcharge shown before
 * the payer chooses, and the screen while the processor's form holds the link, with "pay
 * another way". Rendered by Page.ts; the script (assets/script.ts) opens the form and follows.
 */
import { Money } from "@switch/core"
import type { CardOffer } from "./Model.js"

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

/** The card option of an open link; empty when card payment is not offered on it. */
export const cardOption = (offer: CardOffer | undefined, monto: number, recargoBp: number): string => {
  if (offer === undefined || offer._tag !== "Disponible") return ""
  const pct = String(recargoBp / 100).replace(".", ",")
  return `
<section id="tarjeta" aria-labelledby="tarjeta-titulo">
  <h2 id="tarjeta-titulo">Pagar con tarjeta de débito o crédito</h2>
  <p>Pagas en el formulario seguro del procesador de tarjetas; aquí no escribes los datos de tu tarjeta.
  El pago con tarjeta tiene un recargo de ${esc(pct)} %: ${esc(Money.format(Money.Cents(monto)))} + recargo
  <span id="tarjeta-recargo">${esc(Money.format(offer.recargo))}</span> = <strong id="tarjeta-total">${esc(Money.format(offer.total))}</strong>.</p>
  <button type="button" id="pagar-tarjeta" class="secundario">Pagar ${esc(Money.format(offer.total))} con tarjeta</button>
  <p class="ayuda">O paga sin recargo por débito inmediato con tu banco:</p>
</section>`
}

/** While the processor's form holds the link (`cobrando` by card). */
export const cardHolding = () => `
<section id="tarjeta-en-curso" aria-live="polite">
  <h2 id="tarjeta-en-curso-titulo" tabindex="-1">Pago con tarjeta en curso</h2>
  <p>Esperamos la respuesta del procesador de tarjetas. Si ya pagaste, esta página se actualizará sola; no pagues otra vez.</p>
  <p>Si cerraste el formulario de la tarjeta o tu tarjeta fue rechazada, puedes pagar de otra forma.</p>
  <div id="tarjeta-error" class="alerta" role="alert" tabindex="-1" hidden></div>
  <button type="button" id="otra-forma" class="secundario">Pagar de otra forma</button>
</section>`
