/**
 * One search box for the whole portal (in the header): a link or a transaction by its id,
 * reference or receipt code, and a link by its concept or its payer's name (the links list's
 * `q`); the results page `/buscar?q=` lists both, each linking to its screen. Customers are not
 * searched: the portal shows no payer data of theirs to search by (SPEC).
 */
import type { Link as LinkData, Transaccion } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { Title } from "../context.js"
import { bolivares, fechaHora } from "../format.js"
import { ESTADO_LABEL, type Estado } from "../linkFilters.js"
import { Link } from "../router.js"
import { OPERACION_LABEL, TXN_ESTADO_LABEL } from "../txnFilters.js"

const MAX = 10

export const Buscar = ({ search }: { readonly search: string }) => {
  const q = (new URLSearchParams(search).get("q") ?? "").trim().slice(0, 80)
  const [links, setLinks] = useState<ReadonlyArray<LinkData> | null>(null)
  const [txns, setTxns] = useState<ReadonlyArray<Transaccion> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setLinks(null)
    setTxns(null)
    setError(null)
    if (q === "") return
    let vigente = true
    Promise.all([sw.links.list({ q, limit: MAX }), sw.transacciones.list({ q, limit: MAX })]).then(
      ([l, t]) => {
        if (!vigente) return
        setLinks(l)
        setTxns(t)
      },
      (e) => {
        if (vigente) setError(errorText(e))
      }
    )
    return () => {
      vigente = false
    }
  }, [q])
  return (
    <section>
      <Title>Encontrar</Title>
      {q === "" ? (
        <p>
          Escribe en «Buscar» un id, una referencia bancaria, un código de comprobante, un concepto o un
          nombre.
        </p>
      ) : (
        <p>
          Resultados para <strong>«{q}»</strong>.
        </p>
      )}
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {q === "" || error !== null ? null : links === null || txns === null ? (
        <p role="status">Cargando…</p>
      ) : (
        <>
          <section aria-labelledby="b-links">
            <h2 id="b-links">Links ({links.length === MAX ? `los ${MAX} más recientes` : links.length})</h2>
            {links.length === 0 ? (
              <p>Ningún link.</p>
            ) : (
              <ul className="lista-simple" id="buscar-links">
                {links.map((l) => (
                  <li key={l.id}>
                    <Link to={`/links/${l.id}`}>{l.concepto ?? "Sin concepto"}</Link> · {bolivares(l.monto)} ·{" "}
                    {ESTADO_LABEL[l.estado as Estado] ?? l.estado} · {fechaHora(l.created_at)}
                    {l.codigo_verificacion === null ? null : <> · {l.codigo_verificacion}</>}
                  </li>
                ))}
              </ul>
            )}
            <p>
              <Link to={`/links?q=${encodeURIComponent(q)}`}>Ver todos en Links</Link>
            </p>
          </section>
          <section aria-labelledby="b-txns">
            <h2 id="b-txns">
              Transacciones ({txns.length === MAX ? `las ${MAX} más recientes` : txns.length})
            </h2>
            {txns.length === 0 ? (
              <p>Ninguna transacción.</p>
            ) : (
              <ul className="lista-simple" id="buscar-transacciones">
                {txns.map((t) => (
                  <li key={t.id}>
                    {t.link_id === null ? (
                      (OPERACION_LABEL[t.operacion] ?? t.operacion)
                    ) : (
                      <Link to={`/links/${t.link_id}`}>{OPERACION_LABEL[t.operacion] ?? t.operacion}</Link>
                    )}{" "}
                    · {bolivares(t.total)} · {TXN_ESTADO_LABEL[t.estado] ?? t.estado} ·{" "}
                    {fechaHora(t.created_at)}
                    {t.codigo_verificacion === null ? null : <> · {t.codigo_verificacion}</>}
                  </li>
                ))}
              </ul>
            )}
            <p>
              <Link to={`/transacciones?q=${encodeURIComponent(q)}`}>Ver todas en Transacciones</Link>
            </p>
          </section>
        </>
      )}
    </section>
  )
}
