// new Function with a body of 100000 nested parentheses built at run time.
Function('return ' + '('.repeat(100000) + '1' + ')'.repeat(100000))()
