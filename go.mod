module github.com/skillkit-go/skillkit

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.44.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/sync v0.25.0 // indirect
