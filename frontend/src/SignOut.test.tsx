// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Api } from './api/client.ts'
import { SignOut } from './SignOut.tsx'

afterEach(cleanup)

// Only signOut is used by the button.
const apiWith = (signOut: Api['signOut']) => ({ signOut }) as unknown as Api

describe('SignOut', () => {
  it('asks the server to end the session once, and stays busy while the sign-in page comes', async () => {
    const signOut = vi.fn(() => Promise.resolve())
    const user = userEvent.setup({ delay: null })
    render(<SignOut api={apiWith(signOut)} />)
    await user.click(screen.getByRole('button', { name: 'Sign out' }))
    expect(signOut).toHaveBeenCalledTimes(1)
    const button = screen.getByTestId('sign-out')
    expect(button.textContent).toBe('Signing out…')
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says why when the server could not sign out, and lets the user try again', async () => {
    const signOut = vi.fn(() => Promise.reject(new Error('The server could not sign you out (status 503). Try again in a moment.')))
    const user = userEvent.setup({ delay: null })
    render(<SignOut api={apiWith(signOut)} />)
    await user.click(screen.getByRole('button', { name: 'Sign out' }))
    expect((await screen.findByRole('alert')).textContent).toBe('The server could not sign you out (status 503). Try again in a moment.')
    const button = screen.getByRole('button', { name: 'Sign out' })
    expect((button as HTMLButtonElement).disabled).toBe(false)
    await user.click(button)
    expect(signOut).toHaveBeenCalledTimes(2)
  })
})
