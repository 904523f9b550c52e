package memory

// hooks let tests inject a concurrent change at an exact point instead of sleeping. They are nil in
// production.
type hooks struct {
	beforeGenerationRecheck func()
	beforeToolWrite         func()
	// inToolWriteWindow runs inside a teammate's write transaction, after the generation rows are
	// locked and checked and before the write: the window G6's exactness is about.
	inToolWriteWindow func()
	// afterSwitchCheck runs inside a teammate's write transaction right after it read the memory
	// switch (switch.go) and before the write.
	afterSwitchCheck func()
}
