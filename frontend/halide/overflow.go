package halide

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/augur-verify/augur/frontend"
)

// readIndexChecks reads the obligations the driver wrote to path (none
// when the file does not exist: a translation before flattening).
func readIndexChecks(path string) ([]frontend.IndexObligation, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var obs []frontend.IndexObligation
	if err := json.Unmarshal(b, &obs); err != nil {
		return nil, fmt.Errorf("reading the index overflow obligations: %w", err)
	}
	for i := range obs {
		if err := obs[i].Check(); err != nil {
			return nil, fmt.Errorf("the index overflow obligation %d (a %s of %s): %w", i+1, obs[i].Access, obs[i].Buffer, err)
		}
	}
	return obs, nil
}
