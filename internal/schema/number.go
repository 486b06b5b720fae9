package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxExactExponent bounds the decimal exponent of a number compared
// exactly: 1e999999999 as a big.Rat would take gigabytes. Beyond it a value
// is compared as a float64 (so it is ±Inf or 0) and a schema refuses it.
const maxExactExponent = 1000

// number is a JSON number: exact when its exponent is within
// maxExactExponent, else approximated.
type number struct {
	exact  *big.Rat
	approx float64
}

// parseNumber reads the text of a JSON number.
func parseNumber(s string) (number, bool) {
	if _, exp, hasExp := strings.Cut(strings.ToLower(s), "e"); hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil || e > maxExactExponent || e < -maxExactExponent {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil && !isRange(err) {
				return number{}, false
			}
			return number{approx: f}, true
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return number{}, false
	}
	return number{exact: r}, true
}

// plainInteger reports digits with an optional minus sign, a JSON integer
// whose kind needs no parsing.
func plainInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// asNumber is v as a number when it is one: json.Number as Decode makes
// them, and Go's numeric types for documents built in code.
func asNumber(v any) (number, bool) {
	switch n := v.(type) {
	case json.Number:
		return parseNumber(string(n))
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return number{}, false
		}
		return number{exact: new(big.Rat).SetFloat64(n)}, true
	case float32:
		return asNumber(float64(n))
	case int:
		return number{exact: new(big.Rat).SetInt64(int64(n))}, true
	case int64:
		return number{exact: new(big.Rat).SetInt64(n)}, true
	case int32:
		return number{exact: new(big.Rat).SetInt64(int64(n))}, true
	case uint64:
		return number{exact: new(big.Rat).SetUint64(n)}, true
	}
	return number{}, false
}

// cmp compares n with a schema's bound, which is always exact.
func (n number) cmp(bound *big.Rat) int {
	if n.exact != nil {
		return n.exact.Cmp(bound)
	}
	f, _ := bound.Float64()
	switch {
	case n.approx < f:
		return -1
	case n.approx > f:
		return 1
	}
	return 0
}

// isInteger: 1.0 is an integer (JSON Schema counts values, not spellings).
func (n number) isInteger() bool {
	if n.exact != nil {
		return n.exact.IsInt()
	}
	// Beyond the exact range: huge magnitudes are integers, tiny ones not
	// (unless zero).
	return math.Abs(n.approx) >= 1 || n.approx == 0
}

// multipleOf reports whether n is an integer multiple of the positive m.
func (n number) multipleOf(m *big.Rat) bool {
	if n.exact == nil {
		return false
	}
	return new(big.Rat).Quo(n.exact, m).IsInt()
}

func (n number) String() string {
	if n.exact != nil {
		if n.exact.IsInt() {
			return n.exact.Num().String()
		}
		f, _ := n.exact.Float64()
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(n.approx, 'g', -1, 64)
}

func ratString(r *big.Rat) string { return number{exact: r}.String() }
