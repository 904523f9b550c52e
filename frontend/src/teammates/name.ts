/** Teammate names: 1–120 characters once trimmed (the API's limit, counted in characters). */
export const maxTeammateNameLength = 120

/**
 * What is wrong with a teammate's name, in plain words, or null when the API will take it. The
 * server checks the same rules (and its answer is shown too); checking here says so while typing.
 */
export function teammateNameProblem(name: string): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'Enter a name: it can’t be empty or only spaces.'
  const length = [...trimmed].length
  if (length > maxTeammateNameLength) {
    return `The name is too long: ${length} characters, and at most ${maxTeammateNameLength} fit.`
  }
  return null
}
