define i32 @f(i32 %x) {
  %y = add i32 %x, 0
  ret i32 %y
}
