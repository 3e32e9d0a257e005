/**
 * The Venezuelan banks the service knows (BCV list): what a payer picks on the payment page and
 * what `banco` takes in the direct API. A plain copy of @switch/core's `Venezuela.banks`, so this
 * entry loads nothing at runtime; `Banks.test.ts` keeps the two equal.
 */

/** A bank of the BCV list: its 4-digit code and short name. */
export interface Bank {
  readonly codigo: string
  readonly nombre: string
}

/** The banks the service knows, in code order. */
export const banks: ReadonlyArray<Bank> = [
  { codigo: "0102", nombre: "Banco de Venezuela" },
  { codigo: "0104", nombre: "Venezolano de Crédito" },
  { codigo: "0105", nombre: "Mercantil" },
  { codigo: "0108", nombre: "Provincial" },
  { codigo: "0114", nombre: "Bancaribe" },
  { codigo: "0115", nombre: "Exterior" },
  { codigo: "0128", nombre: "Caroní" },
  { codigo: "0134", nombre: "Banesco" },
  { codigo: "0137", nombre: "Sofitasa" },
  { codigo: "0138", nombre: "Plaza" },
  { codigo: "0146", nombre: "Bangente" },
  { codigo: "0151", nombre: "BFC Banco Fondo Común" },
  { codigo: "0156", nombre: "100% Banco" },
  { codigo: "0157", nombre: "DelSur" },
  { codigo: "0163", nombre: "Banco del Tesoro" },
  { codigo: "0166", nombre: "Banco Agrícola de Venezuela" },
  { codigo: "0168", nombre: "Bancrecer" },
  { codigo: "0169", nombre: "Mi Banco" },
  { codigo: "0171", nombre: "Banco Activo" },
  { codigo: "0172", nombre: "Bancamiga" },
  { codigo: "0173", nombre: "Banco Internacional de Desarrollo" },
  { codigo: "0174", nombre: "Banplus" },
  { codigo: "0175", nombre: "Banco Digital de los Trabajadores (Bicentenario)" },
  { codigo: "0177", nombre: "BANFANB" },
  { codigo: "0191", nombre: "BNC Banco Nacional de Crédito" }
]
