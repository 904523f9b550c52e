import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Landing } from './Landing.tsx'
import './landing.css'

const container = document.getElementById('root')
if (!container) {
  throw new Error('index.html has no #root element')
}

createRoot(container).render(
  <StrictMode>
    <Landing />
  </StrictMode>,
)
