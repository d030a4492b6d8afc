module stream

go 1.26
