/**
 * A merchant's split accounts approved in the portal (issue 33), read-only in the console's
 * merchant list: what a link's `split` may name. Loaded from the merchant's admin view
 * (`GET /admin/v1/operador/comercios/{codigo}`, `cuentas_aprobadas`) when the operator opens it.
 */
import { useState } from "react"
import { errorText, request } from "./api.js"

interface Cuenta {
  readonly tipo: "cuenta" | "telefono"
  readonly valor: string
  readonly banco: string
  readonly identificacion: string
  readonly nombre: string
}

export const CuentasAprobadasPanel = ({
  codigo,
  nombre
}: {
  readonly codigo: string
  readonly nombre: string
}) => {
  const [cuentas, setCuentas] = useState<ReadonlyArray<Cuenta> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [abierto, setAbierto] = useState(false)
  const abrir = (open: boolean) => {
    if (!open || abierto) return
    setAbierto(true)
    request<{ cuentas_aprobadas: ReadonlyArray<Cuenta> }>("GET", `/comercios/${encodeURIComponent(codigo)}`)
      .then((view) => setCuentas(view.cuentas_aprobadas))
      .catch((e) => setError(errorText(e)))
  }
  return (
    <details className="cuentas-aprobadas" onToggle={(e) => abrir(e.currentTarget.open)}>
      <summary>Cuentas para repartos de {nombre}</summary>
      {error !== null ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : !abierto ? null : cuentas === null ? (
        <p>Cargando…</p>
      ) : cuentas.length === 0 ? (
        <p>Sin cuentas aprobadas para repartos.</p>
      ) : (
        <>
          <p>{cuentas.length} de 20 cuentas aprobadas por el comercio en su panel:</p>
          <ul className="lista-simple">
            {cuentas.map((c) => (
              <li key={`${c.tipo}-${c.banco}-${c.valor}`}>
                <strong>{c.nombre}</strong> ({c.identificacion}) · banco {c.banco} ·{" "}
                {c.tipo === "cuenta" ? "cuenta" : "pago móvil"} <code>{c.valor}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  )
}
