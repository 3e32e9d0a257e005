/**
 * The payment page's stylesheet: mobile first (360 px), system fonts, WCAG AA contrast, every
 * control at least 24×24 CSS px to touch (WCAG 2.2 target size).
 */
export const css = `
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f5f8}
body{margin:0}
main{max-width:30rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
h1{font-size:1.25rem;margin:.25rem 0}
h2{font-size:1.15rem;margin:1rem 0 .5rem}
.comercio{margin:0;font-weight:600;color:#3d4752}
.monto{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
.prueba{background:#fff3c4;border:2px dashed #8a6100;color:#4d3600;padding:.5rem .75rem;border-radius:.5rem;margin:0 0 1rem;font-size:.9rem}
.aviso{background:#e8f0fe;border-left:4px solid #174ea6;padding:.5rem .75rem;margin:0 0 1rem}
.alerta{background:#fdecea;border-left:4px solid #a50e0e;color:#5f0a0a;padding:.5rem .75rem;margin:0 0 1rem}
.alerta:focus{outline:3px solid #a50e0e}
label,legend{display:block;font-weight:600;margin:.75rem 0 .25rem}
fieldset{border:0;padding:0;margin:0}
.doc{display:flex;gap:.5rem}
.doc select{flex:0 0 4.5rem}
.doc input{flex:1;min-width:0}
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #5c6670;border-radius:.4rem;background:#fff;color:#1b1f24}
input[aria-invalid=true]{border:2px solid #a50e0e}
input:focus,select:focus,button:focus,a:focus{outline:3px solid #174ea6;outline-offset:2px}
.check{display:flex;gap:.5rem;align-items:flex-start;margin:.75rem 0}
.check input{width:1.5rem;height:1.5rem;margin:0;flex:none}
.check label{margin:0;font-weight:400}
.ayuda{font-size:.875rem;color:#4a545e;margin:.25rem 0}
button,.boton{display:block;width:100%;font:inherit;font-weight:600;text-align:center;text-decoration:none;padding:.75rem;margin:.75rem 0;border-radius:.4rem;border:2px solid #174ea6;cursor:pointer}
.primario{background:#174ea6;color:#fff}
.secundario{background:#fff;color:#174ea6}
button:disabled{opacity:.6;cursor:wait}
button.enlace{display:inline-block;width:auto;min-height:1.5rem;padding:.25rem 0;margin:0 0 .5rem;border:0;background:none;color:#174ea6;font-weight:400;text-decoration:underline}
dd a{display:inline-block;min-height:1.5rem;padding:.125rem 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem}
dt{color:#4a545e}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.ok{color:#0b6b2e}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
`
