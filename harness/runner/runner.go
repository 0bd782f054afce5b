package runner

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/subject"
)

func Main(subjects []subject.Subject) {
	for _, s := range subjects {
		fmt.Println(s.Name())
	}
}
