package cpucost

import "errors"

// Which is the valgrind a gate here would count instructions with, or why
// there is none (before any install a CI runner would do): what `wiregate
// version` says.
func Which() (string, error) {
	if why := unsupported(); why != "" {
		return "", errors.New(why)
	}
	return findValgrind("")
}
