package memory

// Test hooks, reachable from package memory_test only.

// SetBeforeGenerationRecheck runs f inside StartRun, between the packet and the generation re-read.
func (s *Service) SetBeforeGenerationRecheck(f func()) { s.hooks.beforeGenerationRecheck = f }

// SetBeforeToolWrite runs f in a teammate's write after authentication, before its transaction.
func (s *Service) SetBeforeToolWrite(f func()) { s.hooks.beforeToolWrite = f }
