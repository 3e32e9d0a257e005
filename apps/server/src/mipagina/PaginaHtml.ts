/**
 * The HTML of the merchant's own payment page (`/p/<codigo>`): one form, server-rendered, with
 * no script (the form posts to the same address and the server answers with the link's page).
 * Spanish, every field labelled, errors announced and tied to their field, usable at 360 px.
 */
import { MiPagina, Money, type Validation } from "@switch/core"
import type { Pagina } from "./MiPaginaStore.js"

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c
  )

/** The page's stylesheet: the payment page's look (checkout/assets/style.ts), mobile first. */
export const css = `
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f5f8}
body{margin:0}
main{max-width:30rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
h1{font-size:1.25rem;margin:.25rem 0 1rem}
.comercio{margin:0;font-weight:600;color:#3d4752}
.prueba{background:#fff3c4;border:2px dashed #8a6100;color:#4d3600;padding:.5rem .75rem;border-radius:.5rem;margin:0 0 1rem;font-size:.9rem}
.alerta{background:#fdecea;border-left:4px solid #a50e0e;color:#5f0a0a;padding:.5rem .75rem;margin:0 0 1rem}
.alerta ul{margin:0;padding-left:1.25rem}
.alerta a{color:#5f0a0a}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #5c6670;border-radius:.4rem;background:#fff;color:#1b1f24}
input[aria-invalid=true]{border:2px solid #a50e0e}
.monto{font-size:1.5rem;font-weight:700}
input:focus,button:focus,a:focus{outline:3px solid #174ea6;outline-offset:2px}
.ayuda{font-size:.875rem;color:#4a545e;margin:.25rem 0}
.error{font-size:.875rem;color:#a50e0e;font-weight:600;margin:.25rem 0}
button{display:block;width:100%;font:inherit;font-weight:600;text-align:center;padding:.75rem;margin:1.25rem 0 .75rem;border-radius:.4rem;border:2px solid #174ea6;cursor:pointer;background:#174ea6;color:#fff}
`

export interface Assets {
  readonly css: string
}

/** What the payer typed, to show it again beside the errors. */
export interface Typed {
  readonly monto: string
  readonly concepto: string
}

const head = (title: string, assets: Assets) => `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${assets.css}">
</head>`

const fieldError = (errors: Validation.FieldErrors | undefined, field: string) => {
  const list = errors?.fieldErrors[field]
  return list === undefined || list.length === 0 ? undefined : list.join(" ")
}

/** The form of an active page; `errors` and `typed` after a refused submission. */
export const renderForm = (
  pagina: Pagina,
  csrf: string,
  assets: Assets,
  options: { readonly errors?: Validation.FieldErrors; readonly typed?: Typed; readonly aviso?: string } = {}
) => {
  const montoError = fieldError(options.errors, "monto")
  const conceptoError = fieldError(options.errors, "concepto")
  const problems = [
    ...(montoError === undefined ? [] : [{ id: "monto", text: montoError }]),
    ...(conceptoError === undefined ? [] : [{ id: "concepto", text: conceptoError }])
  ]
  const summary =
    options.aviso !== undefined
      ? `<div class="alerta" role="alert" id="errores">${esc(options.aviso)}</div>`
      : problems.length === 0
        ? ""
        : `<div class="alerta" role="alert" id="errores"><p>Revisa lo que escribiste:</p><ul>${problems
            .map((p) => `<li><a href="#${p.id}">${esc(p.text)}</a></li>`)
            .join("")}</ul></div>`
  const rango = `Entre ${Money.format(pagina.montoMin)} y ${Money.format(pagina.montoMax)}.`
  const banner =
    pagina.mode === "test"
      ? `<p class="prueba" role="note"><strong>Modo de prueba:</strong> no se mueve dinero real.</p>`
      : ""
  const concepto = pagina.conceptoPermitido
    ? `<label for="concepto">Concepto (opcional)</label>
  <input id="concepto" name="concepto" maxlength="${MiPagina.CONCEPTO_MAX}" autocomplete="off" value="${esc(options.typed?.concepto ?? "")}"${
    conceptoError === undefined
      ? ' aria-describedby="concepto-ayuda"'
      : ' aria-invalid="true" aria-describedby="concepto-error concepto-ayuda"'
  }>
  ${conceptoError === undefined ? "" : `<p class="error" id="concepto-error">${esc(conceptoError)}</p>`}
  <p class="ayuda" id="concepto-ayuda">Por ejemplo, el número de tu pedido. Hasta ${MiPagina.CONCEPTO_MAX} caracteres.</p>`
    : ""
  return `${head(`Pagar a ${pagina.nombre}`, assets)}
<body>
<main id="app" data-pagina="${esc(pagina.codigo)}">
${banner}
<p class="comercio">Switch · pago seguro</p>
<h1>Pagar a ${esc(pagina.nombre)}</h1>
${summary}
<form id="mi-pagina" method="post" action="/p/${esc(pagina.codigo)}" novalidate>
  <input type="hidden" name="csrf" value="${esc(csrf)}">
  <label for="monto">Monto a pagar en bolívares</label>
  <input class="monto" id="monto" name="monto" inputmode="decimal" autocomplete="off" placeholder="0,00" maxlength="20" required value="${esc(options.typed?.monto ?? "")}"${
    montoError === undefined
      ? ' aria-describedby="monto-ayuda"'
      : ' aria-invalid="true" aria-describedby="monto-error monto-ayuda"'
  }>
  ${montoError === undefined ? "" : `<p class="error" id="monto-error">${esc(montoError)}</p>`}
  <p class="ayuda" id="monto-ayuda">${esc(rango)} Escríbelo así: 1.234,56.</p>
  ${concepto}
  <button type="submit" id="continuar">Continuar al pago</button>
  <p class="ayuda">En el siguiente paso eliges tu banco y confirmas con el código que te envía.</p>
</form>
</main>
</body>
</html>`
}

/** An unknown code, or a page that is off: a plain 404. */
export const notFoundPage = (assets: Assets) => `${head("Página no encontrada", assets)}
<body><main><h1>Esta página de pago no existe o no está activa</h1>
<p>Revisa la dirección o pide al comercio un link de pago.</p></main></body></html>`

/** Too many links asked for: the payer is told how long to wait. */
export const esperaAviso = (seconds: number) =>
  `Se hicieron demasiados intentos. Espera ${seconds >= 60 ? `${Math.ceil(seconds / 60)} min` : `${seconds} s`} e intenta de nuevo.`
