package auth

// HashRuns is how many bcrypt runs (hashes and comparisons) s has made.
func HashRuns(s *Service) int64 { return s.hasher.runs.Load() }
