import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createApi } from './api/client.ts'
import { App } from './App.tsx'
import './app.css'

const container = document.getElementById('root')
if (!container) {
  throw new Error('index.html has no #root element')
}

createRoot(container).render(
  <StrictMode>
    <App api={createApi()} />
  </StrictMode>,
)
