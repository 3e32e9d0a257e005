import { describe, expect, it } from "vitest"
import { frase } from "./actividadTexto.js"

const ID = "508af0ae-8c1e-4c7e-9f0e-2b7d3c1a9e44"

describe("frase", () => {
  it("names the object of each kind of request and links to its screen, never the raw path", () => {
    const cases: Array<[string, string, string, string | null, string | null]> = [
      ["PATCH", `/switch/v1/equipo/${ID}`, "cambió el rol de", "el usuario 508af0ae del equipo", "/equipo"],
      ["DELETE", `/switch/v1/equipo/${ID}`, "quitó del equipo a", "el usuario 508af0ae", "/equipo"],
      ["POST", `/switch/v1/links/${ID}/cancelar`, "canceló", "el link 508af0ae", `/links/${ID}`],
      [
        "POST",
        `/switch/v1/lotes/${ID}/cancelar`,
        "canceló los links abiertos de",
        "el lote 508af0ae",
        `/lotes/${ID}`
      ],
      ["POST", `/switch/v1/llaves/${ID}/rotar`, "rotó", "la llave 508af0ae", "/desarrolladores"],
      [
        "PATCH",
        `/switch/v1/webhooks/${ID}`,
        "cambió",
        "el webhook 508af0ae",
        `/desarrolladores/webhooks/${ID}`
      ],
      ["POST", "/switch/v1/links", "creó un link", null, "/links"],
      ["POST", "/switch/v1/equipo", "invitó a un usuario al equipo", null, "/equipo"],
      ["POST", "/switch/v1/sesion/totp/confirmar", "activó el segundo factor", null, "/seguridad"],
      ["POST", "/switch/v1/acciones-masivas", "empezó una acción masiva", null, "/acciones-masivas"],
      [
        "accion_masiva_terminada",
        `/switch/v1/acciones-masivas/${ID}`,
        "terminó",
        "la acción masiva 508af0ae",
        "/acciones-masivas"
      ]
    ]
    for (const [accion, objeto, verbo, cosa, enlace] of cases) {
      const f = frase({ accion, objeto, resultado: 200 })
      expect(f, `${accion} ${objeto}`).toEqual({ accion: verbo, objeto: cosa, enlace, rechazada: false })
      expect(`${f.accion} ${f.objeto ?? ""}`).not.toContain("/switch/v1")
    }
  })

  it("sign-ins read as what happened; refused requests say so; an unknown path names only its section", () => {
    expect(frase({ accion: "ingreso", objeto: null, resultado: 200 }).accion).toBe("inició sesión")
    expect(frase({ accion: "ingreso_fallido_codigo", objeto: null, resultado: 401 })).toEqual({
      accion: "escribió un código de ingreso errado",
      objeto: null,
      enlace: null,
      rechazada: false
    })
    expect(frase({ accion: "ingreso_codigo_recuperacion", objeto: null, resultado: 200 }).accion).toBe(
      "entró con un código de recuperación"
    )
    expect(
      frase({ accion: "POST", objeto: `/switch/v1/links/${ID}/cancelar`, resultado: 409 }).rechazada
    ).toBe(true)
    expect(frase({ accion: "PUT", objeto: "/switch/v1/config", resultado: 403 })).toEqual({
      accion: "hizo un cambio en el panel",
      objeto: null,
      enlace: null,
      rechazada: true
    })
    expect(frase({ accion: "POST", objeto: "/switch/v1/links/otra/cosa/nueva", resultado: 200 }).accion).toBe(
      "hizo un cambio en los links"
    )
  })
})
