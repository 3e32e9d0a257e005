import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { Consola } from "./Consola.js"
import "../styles.css"
import "./operador.css"

const root = document.getElementById("app")
if (root !== null)
  createRoot(root).render(
    <StrictMode>
      <Consola />
    </StrictMode>
  )
