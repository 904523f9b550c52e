import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const root = import.meta.dirname
const outDir = resolve(root, 'dist')

// The Go package embeds dist with `//go:embed all:dist`, which does not compile when dist is empty,
// so dist/.gitkeep is committed. Vite empties dist on every build; this puts the placeholder back
// however the build was started (npm run build, npx vite build, ...).
function keepDistPlaceholder(): Plugin {
  return {
    name: 'memory:keep-dist-placeholder',
    apply: 'build',
    closeBundle() {
      mkdirSync(outDir, { recursive: true })
      writeFileSync(resolve(outDir, '.gitkeep'), '')
    },
  }
}

// The Go server answers /graphiql with graphiql.html; the dev server does the same, so links work
// alike in both.
function devGraphiQLRoute(): Plugin {
  return {
    name: 'memory:dev-graphiql-route',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url === '/graphiql' || req.url?.startsWith('/graphiql?')) {
          req.url = req.url.replace('/graphiql', '/graphiql.html')
        }
        next()
      })
    },
  }
}

// The Go server that `npm run dev` forwards GraphQL to (HTTP and websocket).
const apiURL = process.env.MEMORY_DEV_API_URL ?? 'http://localhost:8080'

export default defineConfig({
  base: '/',
  plugins: [react(), keepDistPlaceholder(), devGraphiQLRoute()],
  build: {
    outDir,
    assetsDir: 'assets',
    emptyOutDir: true,
    // GraphiQL alone is ~730 kB minified (~235 kB gzipped) and is only loaded by /graphiql; the
    // limit sits just above it so that growth in the app's own chunks still gets reported.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      onwarn(warning, warn) {
        // GraphiQL's react-compiler-runtime starts with "use no memo", a hint for the React
        // compiler that bundling drops harmlessly.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.id?.includes('react-compiler-runtime')) {
          return
        }
        warn(warning)
      },
      input: {
        index: resolve(root, 'index.html'),
        graphiql: resolve(root, 'graphiql.html'),
      },
    },
  },
  server: {
    proxy: {
      '/graphql': { target: apiURL, ws: true, changeOrigin: false },
    },
  },
})
