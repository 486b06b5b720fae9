// Package scan checks skills for attacks. (Documentation follows.)
package scan
