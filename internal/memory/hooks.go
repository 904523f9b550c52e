package memory

// hooks let tests inject a concurrent change at an exact point instead of sleeping. They are nil in
// production.
type hooks struct {
	beforeGenerationRecheck func()
	beforeToolWrite         func()
}
