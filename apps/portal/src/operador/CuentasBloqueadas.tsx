/**
 * The split's block list (`cuentas_bloqueadas`): an account listed here is refused in a new
 * link's split and no part is paid to it. Only `riesgo` sees, adds and removes; the server checks
 * the role and audits each change.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { fechaHora } from "../format.js"
import { errorText, request } from "./api.js"
import { Title } from "./router.js"

interface Bloqueada {
  readonly clave: string
  readonly tipo: string | null
  readonly banco: string | null
  readonly valor: string | null
  readonly motivo: string
  readonly created_at: string
}

const VACIO = { tipo: "cuenta", banco: "", valor: "", motivo: "" }

export const CuentasBloqueadas = () => {
  const [data, setData] = useState<ReadonlyArray<Bloqueada> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const [form, setForm] = useState(VACIO)

  const load = useCallback(() => {
    request<{ data: ReadonlyArray<Bloqueada> }>("GET", "/cuentas-bloqueadas")
      .then((page) => setData(page.data))
      .catch((e) => setError(errorText(e)))
  }, [])
  useEffect(load, [load])

  const bloquear = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso("")
    try {
      await request("POST", "/cuentas-bloqueadas", {
        tipo: form.tipo,
        banco: form.banco.trim(),
        valor: form.valor.trim(),
        motivo: form.motivo.trim()
      })
      setForm(VACIO)
      setAviso(`Cuenta terminada en ${form.valor.trim().slice(-4)} bloqueada.`)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  const desbloquear = (b: Bloqueada) => async () => {
    setError(null)
    setAviso("")
    try {
      await request("POST", `/cuentas-bloqueadas/${encodeURIComponent(b.clave)}/desbloquear`, {})
      setAviso(`Cuenta terminada en ${(b.valor ?? "").slice(-4)} desbloqueada.`)
      load()
    } catch (e) {
      setError(errorText(e))
    }
  }

  return (
    <section>
      <Title>Cuentas bloqueadas</Title>
      <p className="nota">
        Una cuenta bloqueada no se acepta en el reparto de un link nuevo y no se le paga ninguna parte.
      </p>
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <form onSubmit={bloquear} aria-label="Bloquear una cuenta" className="acciones">
        <div className="campo">
          <label htmlFor="cb-tipo">Tipo</label>
          <select id="cb-tipo" value={form.tipo} onChange={(e) => setForm({ ...form, tipo: e.target.value })}>
            <option value="cuenta">Cuenta</option>
            <option value="telefono">Teléfono (pago móvil)</option>
          </select>
        </div>
        <div className="campo">
          <label htmlFor="cb-banco">Código del banco (4 dígitos)</label>
          <input
            id="cb-banco"
            required
            inputMode="numeric"
            pattern="[0-9]{4}"
            value={form.banco}
            onChange={(e) => setForm({ ...form, banco: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="cb-valor">Número</label>
          <input
            id="cb-valor"
            required
            inputMode="numeric"
            value={form.valor}
            onChange={(e) => setForm({ ...form, valor: e.target.value })}
          />
        </div>
        <div className="campo">
          <label htmlFor="cb-motivo">Motivo</label>
          <input
            id="cb-motivo"
            required
            minLength={3}
            maxLength={500}
            value={form.motivo}
            onChange={(e) => setForm({ ...form, motivo: e.target.value })}
          />
        </div>
        <button type="submit">Bloquear cuenta</button>
      </form>
      {data === null ? (
        <p>Cargando…</p>
      ) : data.length === 0 ? (
        <p>No hay cuentas bloqueadas.</p>
      ) : (
        <ul className="lista-simple comercios">
          {data.map((b) => (
            <li key={b.clave}>
              <h2>
                {b.tipo === "telefono" ? "Teléfono" : "Cuenta"} {b.valor ?? b.clave} (banco {b.banco ?? "—"})
              </h2>
              <p>
                {b.motivo}. Bloqueada el {fechaHora(b.created_at)}.
              </p>
              <button
                type="button"
                onClick={desbloquear(b)}
                aria-label={`Desbloquear la cuenta ${b.valor ?? b.clave}`}
              >
                Desbloquear
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
