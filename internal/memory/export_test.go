package memory

// Test hooks, reachable from package memory_test only.

// SetBeforeGenerationRecheck runs f inside StartRun, between the packet and the generation re-read.
func (s *Service) SetBeforeGenerationRecheck(f func()) { s.hooks.beforeGenerationRecheck = f }

// SetBeforeToolWrite runs f in a teammate's write after authentication, before its transaction.
func (s *Service) SetBeforeToolWrite(f func()) { s.hooks.beforeToolWrite = f }

// SetInToolWriteWindow runs f inside a teammate's write transaction, between taking the generation
// rows (and checking the run's generation) and the write.
func (s *Service) SetInToolWriteWindow(f func()) { s.hooks.inToolWriteWindow = f }
